/**
 * Question templates about a topic, per intent and language (English, Spanish, simplified and
 * traditional Chinese), for the generated corpus of `topicCorpus.ts`: `{t}` is the topic, `{s}` and
 * `{o}` a speaker and another as a question names them.
 */
import type { TopicLang } from './topicCorpus';

export type TopicIntent = 'reception' | 'entity' | 'relation' | 'summary' | 'time' | 'semantic';

export const TEMPLATES: Record<TopicIntent, Record<TopicLang, readonly string[]>> = {
  reception: {
    en: ['What do viewers think of the {t}?', 'What do the comments say about the {t}?', 'How did the audience react to the {t}?', 'What do commenters think about the {t}?', 'What do people think of the {t}?'],
    es: ['¿Qué opinan los comentarios sobre {t}?', '¿Qué dice la gente en los comentarios de {t}?', '¿Qué piensan los espectadores de {t}?', '¿Cómo reaccionó la audiencia a lo de {t}?', '¿Qué dice la gente de {t}?'],
    'zh-Hans': ['观众怎么看{t}？', '评论里对{t}的看法是什么？', '网友怎么评价{t}？', '评论区对{t}有什么反应？', '大家怎么看{t}？'],
    'zh-Hant': ['觀眾怎麼看{t}？', '評論裡對{t}的看法是什麼？', '網友怎麼評價{t}？', '評論區對{t}有什麼反應？', '大家怎麼看{t}？'],
  },
  entity: {
    en: ['What did {s} say about the {t}?', 'What does {s} think of the {t}?', "What was {s}'s opinion on the {t}?"],
    es: ['¿Qué dijo {s} sobre {t}?', '¿Qué opina {s} de {t}?', '¿Qué piensa {s} sobre {t}?'],
    'zh-Hans': ['{s}对{t}说了什么？', '{s}怎么看{t}？', '{s}对{t}的看法是什么？'],
    'zh-Hant': ['{s}對{t}說了什麼？', '{s}怎麼看{t}？', '{s}對{t}的看法是什麼？'],
  },
  relation: {
    en: ['Did {s} and {o} agree about the {t}?', 'How do {s} and {o} differ on the {t}?'],
    es: ['¿{s} y {o} están de acuerdo sobre {t}?', '¿En qué se diferencian {s} y {o} sobre {t}?'],
    'zh-Hans': ['{s}和{o}在{t}上的看法一致吗？', '{s}和{o}对{t}有什么分歧？'],
    'zh-Hant': ['{s}和{o}在{t}上的看法一致嗎？', '{s}和{o}對{t}有什麼分歧？'],
  },
  summary: {
    en: ['Summarize the discussion about the {t}.', 'Give me a recap of what was said on the {t}.'],
    es: ['Resume lo que se habló sobre {t}.', 'Dame un resumen de la discusión sobre {t}.'],
    'zh-Hans': ['总结一下关于{t}的讨论。', '概括一下大家对{t}的意见。'],
    'zh-Hant': ['總結一下關於{t}的討論。', '概括一下大家對{t}的意見。'],
  },
  time: {
    en: ['What was said about the {t} in the first 20 minutes?', 'What did they say about the {t} after minute 5?'],
    es: ['¿Qué se dijo sobre {t} en los primeros 20 minutos?', '¿Qué comentaron de {t} después del minuto 5?'],
    'zh-Hans': ['前20分钟里关于{t}说了什么？', '5分钟之后大家对{t}讲了什么？'],
    'zh-Hant': ['前20分鐘裡關於{t}說了什麼？', '5分鐘之後大家對{t}講了什麼？'],
  },
  semantic: {
    en: ['Why was the {t} a problem?', 'What is wrong with the {t}?'],
    es: ['¿Por qué {t} era un problema?', '¿Qué falla en {t}?'],
    'zh-Hans': ['为什么{t}是个问题？', '{t}有什么不足？'],
    'zh-Hant': ['為什麼{t}是個問題？', '{t}有什麼不足？'],
  },
};

/** `template` with its topic and speakers filled in. */
export function compose(template: string, topic: string, speaker = '', other = ''): string {
  return template.replaceAll('{t}', topic).replaceAll('{s}', speaker).replaceAll('{o}', other);
}
