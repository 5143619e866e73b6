/**
 * A labelled set of questions for intent scoring (issue 23, "intent from evidence"), written for
 * this project — not taken from the dev `ask.jsonl` files, which stay for measurement only.
 *
 * Templates per intent and language (English, Spanish, simplified Chinese; traditional Chinese is
 * the simplified templates in traditional characters plus a few of its own wording), each with an
 * id. A template is composed with topics, speakers, named things, item nouns, time phrases and
 * citation numbers of its language, several times over ({@link intentQuestions}), and asked in an
 * item with comments, one without, or over the whole corpus ({@link intentCorpus}): the entity
 * features come from the same entity linking the product runs.
 *
 * Slots: `{t}` `{u}` topics; `{s}` `{o}` speakers (as a question names them); `{e}` `{f}` named things
 * (organisations, people the speakers talk about, names the corpus does not know); `{this}`
 * `{the}` `{del}` `{item}` `{items}` the item noun; `{time}` a time phrase; `{n}` `{m}` citation
 * numbers. A template with a `session` asks after an earlier question (a pronoun refers to it).
 */
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import type { Intent } from '../../src/core/ask/query';
import { commentsPart, itemOf, transcriptPart } from './parts';
import { rng } from './testing';

export type IntentLang = 'en' | 'es' | 'zh-Hans' | 'zh-Hant';
export const INTENT_LANGS: readonly IntentLang[] = ['en', 'es', 'zh-Hans', 'zh-Hant'];
/** Where a question is asked: an item without comments, an item with comments, or the corpus (which has comments). */
export type Scope = 'meeting' | 'video' | 'corpus';

export interface IntentTemplate {
  /** `<intent>.<en|es|zh>.<nn>`: the same id for a simplified template and its traditional form (one phrasing, one group). */
  id: string;
  intent: Intent;
  text: string;
  scopes: readonly Scope[];
  /** An earlier question of the conversation (slots filled alike). */
  session?: string;
}

export interface LabelledQuestion {
  template: string;
  lang: IntentLang;
  intent: Intent;
  question: string;
  itemId?: string;
  session: string[];
  scope: Scope;
}

type Raw = readonly [text: string, scopes: string, session?: string];
const ALL = 'meeting video corpus';
const ITEM = 'meeting video';
const COMMENTED = 'video corpus';

// ---------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------

const EN: Record<Intent, readonly Raw[]> = {
  summary: [
    ['What is {this} about?', ITEM], ["What's {this} about?", ITEM], ['Summarize {this}.', ITEM], ['Give me a quick overview of {the}.', ITEM],
    ['Can you recap the discussion about {t}?', ITEM], ['What was {the} mainly about?', ITEM], ['In a few sentences, what happens in {this}?', ITEM],
    ['What are the main points of {the}?', ITEM], ['Sum up what was said {time}.', ITEM], ['What did they talk about {time}?', ITEM],
    ['Tell me what {this} covers.', ITEM], ['What is the gist of the conversation on {t}?', ITEM], ['Briefly, what is {the} about?', ITEM],
    ['What were the key takeaways from {this}?', ITEM], ['Give me the short version of {this}.', ITEM], ['What was discussed {time}?', ITEM],
    ['Walk me through {the}.', ITEM], ['So what is this one about?', ITEM], ['Could you outline what {the} is about?', ITEM],
    ['Recap {the} for me.', ITEM], ['I missed {the}, what happened?', ITEM],
    ["Summarize {s}'s opinion on {t}.", ITEM], ['Give me an overview of what {s} said about {t}.', ITEM],
  ],
  search_entity: [
    ['What did {s} say about {t}?', ITEM], ["What is {s}'s view on {t}?", ITEM], ['Who is {e}?', ALL], ['What does {s} think of {t}?', ITEM],
    ['Tell me about {e}.', ALL], ['What role does {e} play here?', ALL], ['How did {s} explain {t}?', ITEM], ['What did {s} propose {time}?', ITEM],
    ['What happened to {e} later?', ALL], ["What was {s}'s main argument?", ITEM], ['Did {s} mention {t}?', ITEM], ['What did {s} decide about {t}?', ITEM],
    ['Where does {s} stand on {t}?', ITEM], ['What did he say about {t}?', ITEM, 'What did {s} say?'], ['And what happened to him later?', ALL, 'Who is {e}?'],
    ['What is {e} planning?', ALL], ['Why is {s} worried about {t}?', ITEM],
    ['In {this}, what did {s} say about {t}?', ITEM], ['What does {s} think about {t} in {the}?', ITEM], ['How did {s} react to {t}?', ITEM], ["What is {s}'s role in {the}?", ITEM],
    ['What did {s} think of {t} when discussing the {e} report?', ITEM], ["What was {s}'s view on {t} during the {e} talks?", ITEM],
  ],
  search_relation: [
    ['Did {s} and {o} agree about {t}?', ITEM], ['What is the relationship between {e} and {f}?', ALL], ['How do {s} and {o} differ on {t}?', ITEM],
    ['Compare what {s} and {o} said about {t}.', ITEM], ['How did {s} respond to {o}?', ITEM], ['Relationship between {e} and {f}?', ALL],
    ['{s} vs {o}: who made the stronger case on {t}?', ITEM], ['Where do {s} and {o} part ways on {t}?', ITEM], ['How is {e} connected to {f}?', ALL],
    ['Did {s} side with {o} on {t}?', ITEM], ['What did {s} and {o} argue about?', ITEM], ['How does {e} relate to {f}?', ALL],
    ['Why did {s} agree with {o} {time}?', ITEM], ['Who answered {s} on {t}?', ITEM], ['What links {e} and {f}?', ALL],
    ['In {the}, did {s} agree with {o} on {t}?', ITEM], ['How did {s} and {o} get along in {the}?', ITEM],
  ],
  search_semantic: [
    ['Why did the team choose {t}?', ITEM], ['What problems were raised about {t}?', ITEM], ['How much will {t} cost?', ALL], ['What was decided about {t}?', ITEM],
    ['What are the risks of {t}?', ALL], ['Which options were considered for {t}?', ITEM], ['When will {t} be ready?', ALL], ['What was left open about {t}?', ITEM],
    ['What evidence was given for {t} {time}?', ITEM], ['Is there any mention of {t}?', ALL], ['What solutions were proposed for {t}?', ALL], ['How does {t} work?', ALL],
    ['Which comments link to other websites?', COMMENTED], ['Which comments are promoting other channels?', COMMENTED], ['What were the main obstacles to {t}?', ITEM],
    ['What do people in the meeting think about {t}?', 'meeting'], ['What examples were given of {t}?', ALL],
    ['What does {the} say about {t}?', ITEM], ['In {this}, why was {t} rejected?', ITEM], ['What is {t} about?', ALL], ['What did the panel identify as the main problem with {t}?', ITEM], ['How did they fix {t}?', ITEM], ['How long will {t} take?', ALL], ['What figures were given for {t} in {the}?', ITEM],
    ['What do people think about {t}?', 'meeting'], ['How do people feel about {t}?', 'meeting'],
    ['What is the relationship between {t} and {u}?', ALL], ['How does {t} compare with {u}?', ALL], ['What is the difference between {t} and {u}?', ALL], ['What was the debate about {t}?', ITEM], ['How are {t} and {u} connected?', ALL],
  ],
  analyze_topic: [
    ['Which themes keep coming back across the {items}?', 'corpus'], ['What topics come up {time}?', ITEM], ['How does the discussion of {t} develop over the course of {the}?', ITEM],
    ['Which {items} talk about {t}?', 'corpus'], ['What are the recurring topics in these {items}?', 'corpus'], ['What do the {items} have in common?', 'corpus'],
    ['How did the conversation about {t} change over time?', ALL], ['What subjects does {this} touch on?', ITEM], ['Which themes dominate {the}?', ITEM],
    ['Is {t} a recurring theme?', ALL], ['List the main topics of the {items}.', 'corpus'], ['How does {t} evolve from one {item} to the next?', 'corpus'],
    ['What topics did they cover?', ITEM],
    ['What themes run through {this}?', ITEM], ['Which subjects does {the} keep returning to?', ITEM],
  ],
  analyze_reception: [
    ['What do viewers think of {t}?', COMMENTED], ['How did the audience react to {t}?', COMMENTED], ['What do the fans say about {s}?', 'video'],
    ['What do people think of {t}?', COMMENTED], ['Are the comments mostly positive or negative?', COMMENTED], ['What do people watching say about {e}?', COMMENTED],
    ['What are the most common complaints in the comments?', COMMENTED], ['How was {this} received?', 'video'], ['What questions do viewers ask?', COMMENTED],
    ['Do people like {this}?', 'video'], ['What do the fans love about {t}?', COMMENTED], ['What is the general sentiment about {t}?', COMMENTED],
    ['How do subscribers feel about {e}?', COMMENTED], ['What are people saying about {s}?', 'video'], ['Did the fans like what {s} said about {t}?', 'video'],
    ['How do people feel about {t}?', COMMENTED],
    ['What do viewers think of {this}?', 'video'], ['How did people react to {this}?', 'video'], ['How do viewers feel about {t}?', COMMENTED], ["What's the audience's take on {s}?", 'video'],
    ['What do commenters say about {e}?', COMMENTED], ['Do the fans agree with {s} on {t}?', 'video'],
    ['How did {t} go down with the audience?', COMMENTED],
  ],
  recommend_clip: [
    ['Show me clips suitable for TikTok.', ITEM], ['Which moments would make good short clips?', ITEM], ['Find quotable moments {time}.', ITEM],
    ["Which of {s}'s answers would work as a short video?", ITEM], ['What are the best moments for a highlight reel?', ITEM], ['Pick three segments I could share on social media.', ITEM],
    ['Which parts of {the} could go viral?', ITEM], ['Suggest some snippets for Instagram Reels.', ITEM], ['Which exchanges would work as clips?', ITEM],
    ['What would be a good teaser for {this}?', ITEM], ['Recommend a few soundbites about {t}.', ITEM], ['Which passages are worth cutting into shorts?', ITEM],
    ['Any good clips of {s} talking about {t}?', ITEM],
    ['Which moments of {this} would make good clips?', ITEM], ['What from {this} should I post on Instagram?', ITEM], ['Which lines of {s} are the most quotable?', ITEM],
  ],
  citation_lookup: [
    ['What does [{n}] say?', ALL], ['Show me what citation {n} says.', ALL], ['Who said source {n}?', ALL], ['What is the exact quote in [{n}]?', ALL],
    ['Open source {n}.', ALL], ['Compare [{n}] and [{m}].', ALL], ['Where does citation {n} come from?', ALL], ['Is [{n}] from {s}?', ITEM],
    ['Summarize source {n}.', ALL], ['What do [{n}] and [{m}] say about {t}?', ALL], ['What exactly does reference {n} say?', ALL],
    ['In {the}, what does [{n}] say?', ITEM], ['Who is speaking in [{n}]?', ALL],
  ],
};

const ES: Record<Intent, readonly Raw[]> = {
  summary: [
    ['¿De qué va {this}?', ITEM], ['¿De qué trata {the}?', ITEM], ['Resume {this}.', ITEM], ['Resúmeme {the}, por favor.', ITEM], ['Dame un resumen {del}.', ITEM],
    ['¿Cuáles son las ideas principales {del}?', ITEM], ['Hazme un resumen rápido de lo que se habló sobre {t}.', ITEM], ['¿Qué se dijo {time}?', ITEM],
    ['¿De qué hablaron {time}?', ITEM], ['En pocas palabras, ¿qué pasa en {this}?', ITEM], ['¿Me cuentas de qué va {the}?', ITEM],
    ['¿Cuál es el mensaje principal {del}?', ITEM], ['Sintetiza la conversación sobre {t}.', ITEM], ['¿Qué conclusiones deja {this}?', ITEM],
    ['Explícame brevemente de qué se habla en {the}.', ITEM], ['¿Qué se cuenta en {this}?', ITEM], ['Dame una visión general {del}.', ITEM],
    ['Hazme un repaso {del}.', ITEM],
    ['Resume la opinión de {s} sobre {t}.', ITEM],
  ],
  search_entity: [
    ['¿Qué dijo {s} sobre {t}?', ITEM], ['¿Qué opina {s} de {t}?', ITEM], ['¿Quién es {e}?', ALL], ['¿Qué cuenta {s} de {t}?', ITEM], ['Háblame de {e}.', ALL],
    ['¿Cómo explica {s} lo de {t}?', ITEM], ['¿Qué propuso {s} {time}?', ITEM], ['¿Qué papel tiene {e} en la conversación?', ALL],
    ['¿Por qué {s} está en contra de {t}?', ITEM], ['¿Cuál es la postura de {s} sobre {t}?', ITEM], ['¿Y qué dice él sobre {t}?', ITEM, '¿Qué cuenta {s}?'],
    ['¿Qué le pasó a {e} después?', ALL], ['¿Mencionó {s} {t}?', ITEM], ['¿A qué se dedica {e}?', ALL], ['¿Qué piensa {s} de {t}?', ITEM],
    ['¿Y qué más contó ella?', ITEM, '¿Qué dijo {s} sobre {t}?'],
    ['En {this}, ¿qué dijo {s} sobre {t}?', ITEM], ['¿Cómo reaccionó {s} ante {t}?', ITEM], ['¿Qué papel tiene {s} en {the}?', ITEM],
    ['¿Qué opinaba {s} de {t} cuando se habló del informe de {e}?', ITEM],
  ],
  search_relation: [
    ['¿{s} y {o} están de acuerdo sobre {t}?', ITEM], ['¿Cuál es la relación entre {e} y {f}?', ALL], ['¿En qué se diferencian {s} y {o} respecto a {t}?', ITEM],
    ['Compara lo que dicen {s} y {o} sobre {t}.', ITEM], ['¿Cómo respondió {s} a {o}?', ITEM], ['¿Qué relación tiene {e} con {f}?', ALL],
    ['¿Discrepan {s} y {o} en lo de {t}?', ITEM], ['¿Por qué discutieron {s} y {o}?', ITEM], ['¿Coinciden {s} y {o} en {t}?', ITEM],
    ['{s} frente a {o}: ¿quién tiene razón sobre {t}?', ITEM], ['¿Cómo terminó {e} trabajando con {f}?', ALL], ['¿Qué vínculo hay entre {e} y {f}?', ALL],
    ['¿Qué le contestó {s} a {o} {time}?', ITEM],
    ['En {the}, ¿{s} le dio la razón a {o}?', ITEM], ['¿Cómo se llevan {s} y {o} en {the}?', ITEM],
  ],
  search_semantic: [
    ['¿Por qué eligieron {t}?', ITEM], ['¿Qué problemas tiene {t}?', ALL], ['¿Cuánto cuesta {t}?', ALL], ['¿Qué se decidió sobre {t}?', ITEM], ['¿Qué riesgos tiene {t}?', ALL],
    ['¿Qué alternativas se plantearon para {t}?', ITEM], ['¿Qué recomendaciones se dan sobre {t} {time}?', ITEM], ['¿Cómo funciona {t}?', ALL],
    ['¿Qué quedó pendiente sobre {t}?', ITEM], ['¿Hay comentarios con enlaces a otras páginas?', COMMENTED], ['¿Qué soluciones se propusieron para {t}?', ALL],
    ['¿Cuándo estará listo {t}?', ALL], ['¿Qué comentarios promocionan otros canales?', COMMENTED], ['¿Qué ejemplos se dieron de {t}?', ALL],
    ['¿Qué piensan en la reunión sobre {t}?', 'meeting'],
    ['¿Qué dice {the} sobre {t}?', ITEM], ['En {this}, ¿por qué se descartó {t}?', ITEM], ['¿Cómo solucionaron lo de {t}?', ITEM], ['¿Cuánto tiempo llevará {t}?', ALL], ['¿Qué cifras se dieron sobre {t} en {the}?', ITEM],
    ['¿Qué piensa la gente de {t}?', 'meeting'], ['¿Qué opina la gente sobre {t}?', 'meeting'],
    ['¿Qué relación hay entre {t} y {u}?', ALL], ['¿En qué se diferencia {t} de {u}?', ALL], ['¿Cómo se compara {t} con {u}?', ALL], ['¿Qué debate hubo sobre {t}?', ITEM],
  ],
  analyze_topic: [
    ['¿Qué temas se repiten en los {items}?', 'corpus'], ['¿Qué temas salen {time}?', ITEM], ['¿Cómo evoluciona la discusión sobre {t} a lo largo {del}?', ITEM],
    ['¿En qué {items} se habla de {t}?', 'corpus'], ['¿Qué tienen en común los {items}?', 'corpus'], ['¿Cuáles son los temas recurrentes?', ALL],
    ['¿Cómo cambia el enfoque sobre {t} de un {item} a otro?', 'corpus'], ['¿Qué temas toca {this}?', ITEM], ['¿Qué asuntos dominan {the}?', ITEM],
    ['¿Es {t} un tema recurrente?', ALL], ['¿Cómo se trata {t} en los distintos {items}?', 'corpus'], ['Enumera los temas principales de los {items}.', 'corpus'],
    ['¿Qué temas atraviesan {this}?', ITEM], ['¿A qué asuntos vuelve una y otra vez {the}?', ITEM],
  ],
  analyze_reception: [
    ['¿Qué opinan los espectadores de {t}?', COMMENTED], ['¿Qué piensa la gente de {t}?', COMMENTED], ['¿Qué dicen los seguidores sobre {s}?', 'video'],
    ['¿Cómo reaccionó el público a {t}?', COMMENTED], ['¿Qué critican los comentaristas {del}?', 'video'], ['¿Los comentarios son positivos o negativos?', COMMENTED],
    ['¿Qué destacan los comentarios sobre {e}?', COMMENTED], ['¿Le gusta a la gente {this}?', 'video'], ['¿Qué preguntas hacen los fans?', COMMENTED],
    ['¿Cómo valora la audiencia a {s}?', 'video'], ['¿De qué se queja la gente?', COMMENTED], ['¿Qué sentimiento general hay sobre {t}?', COMMENTED],
    ['¿Qué dice la gente de {s}?', 'video'], ['¿Cómo se tomaron los seguidores lo de {t}?', COMMENTED], ['¿Qué opina la gente que lo vio?', 'video'],
    ['¿Qué opinan los espectadores de {this}?', 'video'], ['¿Cómo reaccionó la gente a {this}?', 'video'], ['¿Qué le pareció al público lo de {t}?', COMMENTED],
    ['¿Qué dice la gente de {e}?', COMMENTED], ['¿Están de acuerdo los seguidores con {s}?', 'video'],
    ['¿Qué tal le cayó al público lo de {t}?', COMMENTED],
  ],
  recommend_clip: [
    ['¿Qué momentos servirían como clips cortos?', ITEM], ['¿Qué fragmentos {del} se podrían compartir en redes sociales?', ITEM], ['Recomiéndame cortes para TikTok {time}.', ITEM],
    ['¿Cuáles son los mejores momentos para un vídeo corto?', ITEM], ['Busca frases memorables de {s}.', ITEM], ['¿Qué partes podrían hacerse virales?', ITEM],
    ['Sugiere recortes sobre {t} para Instagram.', ITEM], ['¿Qué momentos destacados elegirías para un tráiler?', ITEM], ['Dame tres clips de {s} hablando de {t}.', ITEM],
    ['¿Qué trozos {del} funcionarían como shorts?', ITEM], ['¿Qué citas memorables hay {time}?', ITEM],
    ['¿Qué momentos de {this} quedarían bien como clips?', ITEM], ['¿Qué frases de {s} son las más citables?', ITEM],
  ],
  citation_lookup: [
    ['¿Qué dice la fuente {n}?', ALL], ['¿Qué dice exactamente [{n}]?', ALL], ['Muéstrame la cita {n}.', ALL], ['¿Quién dijo lo de la fuente {n}?', ALL],
    ['Resume la fuente {n}.', ALL], ['Compara las fuentes {n} y {m}.', ALL], ['¿De dónde sale la referencia {n}?', ALL], ['¿La fuente {n} es de {s}?', ITEM],
    ['¿Qué dicen [{n}] y [{m}] sobre {t}?', ALL],
    ['En {the}, ¿qué dice [{n}]?', ITEM], ['¿Quién habla en la fuente {n}?', ALL],
  ],
};

const ZH: Record<Intent, readonly Raw[]> = {
  summary: [
    ['{this}讲的是什么？', ITEM], ['{this}主要讲了什么？', ITEM], ['总结一下{this}', ITEM], ['概括一下关于{t}的讨论', ITEM], ['{time}大家讨论了什么？', ITEM],
    ['{this}的主要内容是什么？', ITEM], ['用几句话说说{this}在讲什么', ITEM], ['{this}的重点是什么？', ITEM], ['帮我梳理一下{this}的要点', ITEM],
    ['{this}是关于什么的？', ITEM], ['简要介绍一下{this}', ITEM], ['能不能给我一个{this}的摘要？', ITEM], ['{time}讲了哪些内容？', ITEM],
    ['{this}说了啥？', ITEM], ['{this}在聊什么？', ITEM], ['简单说说{this}', ITEM],
    ['{this}大概讲了些什么？', ITEM],
    ['总结一下{s}对{t}的看法', ITEM],
  ],
  search_entity: [
    ['{s}对{t}说了什么？', ITEM], ['{s}怎么看{t}？', ITEM], ['{e}是谁？', ALL], ['{s}对{t}的看法是什么？', ITEM], ['介绍一下{e}', ALL],
    ['{s}为什么反对{t}？', ITEM], ['{s}{time}提出了什么建议？', ITEM], ['{e}在讨论中起什么作用？', ALL], ['他后来怎么样了？', ALL, '{e}是谁？'],
    ['{s}的主要观点是什么？', ITEM], ['{s}有没有提到{t}？', ITEM], ['关于{t}，{s}是怎么解释的？', ITEM], ['{e}后来发生了什么？', ALL],
    ['那她对{t}是什么态度？', ITEM, '{s}说了什么？'], ['{s}担心{t}的什么？', ITEM],
    ['在{this}里，{s}对{t}怎么看？', ITEM], ['{s}对{t}有什么反应？', ITEM], ['{s}在{this}里负责什么？', ITEM],
    ['{s}在谈到{e}的报告时，对{t}怎么看？', ITEM],
  ],
  search_relation: [
    ['{s}和{o}对{t}的看法一致吗？', ITEM], ['{e}和{f}是什么关系？', ALL], ['{s}和{o}在{t}上有什么分歧？', ITEM], ['比较一下{s}和{o}关于{t}的观点', ITEM],
    ['{s}是怎么回应{o}的？', ITEM], ['{e}与{f}之间有什么关联？', ALL], ['{s}同意{o}的说法吗？', ITEM], ['{e}和{f}有什么区别？', ALL],
    ['{s}跟{o}为什么争论起来？', ITEM], ['{s}和{o}谁的观点更有说服力？', ITEM], ['{e}跟{f}是怎么合作的？', ALL], ['{time}{s}怎么反驳{o}的？', ITEM],
    ['在{this}里，{s}赞同{o}吗？', ITEM], ['{s}和{o}在{this}里是什么关系？', ITEM],
  ],
  search_semantic: [
    ['为什么选择{t}？', ITEM], ['{t}有哪些问题？', ALL], ['{t}要花多少钱？', ALL], ['关于{t}最后决定了什么？', ITEM], ['{t}有什么风险？', ALL],
    ['会上提到{t}遇到了哪些挑战？', 'meeting'], ['{time}提到了哪些关于{t}的建议？', ITEM], ['{t}是怎么运作的？', ALL], ['哪些评论在推广其他频道？', COMMENTED],
    ['{t}还有什么没解决？', ITEM], ['针对{t}提出了哪些解决办法？', ALL], ['{t}什么时候能完成？', ALL], ['有没有评论带外部链接？', COMMENTED], ['{t}举了哪些例子？', ALL],
    ['在{this}里，{t}为什么被否决了？', ITEM], ['{t}是怎么解决的？', ITEM], ['{t}需要多长时间？', ALL], ['{this}对{t}得出了什么结论？', ITEM], ['{this}里关于{t}给出了哪些具体数字？', ITEM],
    ['大家怎么看{t}？', 'meeting'], ['大家对{t}有什么看法？', 'meeting'],
    ['{t}与{u}的关系', ALL], ['{t}和{u}有什么区别？', ALL], ['如何处理{t}和{u}之间的关系？', ALL], ['{t}跟{u}相比怎么样？', ALL],
  ],
  analyze_topic: [
    ['这些{items}里反复出现哪些主题？', 'corpus'], ['{time}谈到了哪些话题？', ITEM], ['关于{t}的讨论是怎么发展的？', ITEM], ['哪些{items}谈到了{t}？', 'corpus'],
    ['这几场{items}有什么共同点？', 'corpus'], ['各场会议各自关注什么议题？', 'corpus'], ['{t}这个话题是如何变化的？', ALL], ['{this}涉及了哪些话题？', ITEM],
    ['整个{item}里的主要议题有哪些？', ITEM], ['{t}在不同{items}中是怎么被讨论的？', 'corpus'], ['哪些主题贯穿了所有{items}？', 'corpus'],
    ['{this}围绕哪些主题展开？', ITEM], ['{this}反复回到哪些议题？', ITEM],
  ],
  analyze_reception: [
    ['网友怎么看{t}？', COMMENTED], ['观众对{s}的评价怎么样？', 'video'], ['大家对{t}有什么反应？', COMMENTED], ['评论区对{t}的态度是正面还是负面？', COMMENTED],
    ['粉丝们喜欢{this}吗？', 'video'], ['观众都在吐槽什么？', COMMENTED], ['网友提了哪些问题？', COMMENTED], ['{this}的口碑怎么样？', 'video'],
    ['评论里大家怎么评价{e}？', COMMENTED], ['看视频的人对{t}怎么看？', COMMENTED], ['弹幕里对{s}是什么态度？', 'video'], ['大家对{t}的情绪如何？', COMMENTED],
    ['网友对{s}说的话有什么意见？', 'video'], ['观众喜不喜欢{t}这部分？', COMMENTED],
    ['观众怎么看{this}？', 'video'], ['大家怎么评价{this}？', 'video'], ['网友对{this}的反应如何？', 'video'],
    ['网友怎么评价{s}？', 'video'], ['观众认同{s}的观点吗？', 'video'],
    ['{t}在观众那里反响如何？', COMMENTED],
  ],
  recommend_clip: [
    ['哪些片段适合做成短视频？', ITEM], ['推荐几个适合发抖音的片段', ITEM], ['{time}有哪些片段适合剪成精华？', ITEM], ['{s}的哪些回答可以做成切片？', ITEM],
    ['{this}里有哪些金句？', ITEM], ['找几个高光时刻', ITEM], ['哪些部分适合传播？', ITEM], ['帮我挑几段关于{t}的精彩片段', ITEM],
    ['哪几段最适合剪辑成预告？', ITEM], ['有哪些名场面可以做短视频？', ITEM],
    ['{this}里哪些时刻适合做成短视频？', ITEM], ['{s}哪些话最适合做成金句？', ITEM],
  ],
  citation_lookup: [
    ['引用{n}的原话是什么？', ALL], ['来源{n}是谁说的？', ALL], ['来源{n}和来源{m}分别说了什么？', ALL], ['引用{n}讲了什么？', ALL], ['出处{n}在哪里？', ALL],
    ['总结一下引用{n}', ALL], ['比较一下来源{n}和来源{m}', ALL], ['引用{n}是{s}说的吗？', ITEM], ['[{n}]里关于{t}说了什么？', ALL],
    ['在{this}里，引用{n}说了什么？', ITEM], ['来源{n}里是谁在说话？', ALL],
  ],
};

/** Traditional-Chinese wordings of its own (Taiwan and Hong Kong usage: 影片, 這集), besides the converted simplified templates. */
const ZH_HANT_OWN: Partial<Record<Intent, readonly Raw[]>> = {
  summary: [['這部影片在講什麼？', ITEM], ['這集在聊什麼？', ITEM]],
  analyze_reception: [['看影片的人覺得{t}怎麼樣？', COMMENTED], ['鄉民怎麼看{s}？', 'video']],
  recommend_clip: [['哪些段落適合剪成短影片？', ITEM]],
};

/** Simplified → traditional for the characters of the Chinese templates and fillers (one form each; the templates avoid ambiguous ones). */
const HANT: Record<string, string> = Object.fromEntries(
  [
    '这這 个個 视視 频頻 讲講 么麼 么麼 总總 结結 论論 时時 间間 们們 内內 说說 简簡 绍紹 给給 摘摘 么麼 聊聊 单單 对對 观觀 怎怎 为為 发發 议議 么麼 后後 样樣 么麼 态態 担擔 心心 关關 释釋 与與 联聯 区區 别別 吗嗎 争爭 辩辯 谁誰 观觀 点點 服服 么麼 驳駁 择擇 题題 钱錢 险險 会會 战戰 运運 评評 论論 推推 广廣 频頻 没沒 决決 针針 办辦 链鏈 举舉 例例 里裡 复復 现現 话話 场場 共共 各各 变變 涉涉 及及 贯貫 网網 价價 应應 反反 负負 吐吐 槽槽 弹彈 见見 欢歡 这這 适適 短短 荐薦 几幾 抖抖 剪剪 辑輯 精精 华華 答答 切切 金金 句句 高高 光光 传傳 预預 场場 面面 引引 来來 源源 处處 别別 处處 理理 报報 告告 较較 于於 经經 过過 还還 实實 纪紀 录錄 访訪 谈談 节節 目目 期期 员員 龙龍 众眾 丝絲 饭飯 乐樂 气氣 电電 池池 算算 远遠 程程 办辦 公公 人人 工工 智智 能能 芯芯 片片 缺缺 教教 育育 开開 态態 统統 补補 贴貼 门門 票票 价價 产產 线線 运運 营營 疗療 伤傷 训訓 练練 饮飲 质質 数數 据據 隐隱 私私 业業 务務 帮幫 读讀 众眾 场場 时時 钟鐘 后後 头頭 刚剛 两兩 边邊 长長 么麼 问問 难難 给給 图圖 书書 馆館 药藥 续續 续續 费費 标標 准準 响響 约約 写寫 韩韓 诉訴 认認 识識 调調 协協 组組 织織 级級 众眾 赛賽 历歷 销銷 售售 东東 汇匯 报報 剧劇 资資 讯訊 岁歲 让讓 达達 团團 队隊 创創 总總 赵趙 张張 陈陳 刘劉 杨楊 吴吳 郑鄭 晓曉 启啟 罗羅 汉漢 坤坤 沙沙 腾騰 讯訊 阿阿 巴巴 比比 亚亞 迪迪 宁寧 德德 时時 代代 华華 为為 鸿鴻 蒙蒙 苹蘋 果果 伟偉 洋洋 娜娜 凯凱 丽麗 静靜 强強 系係 圆圓 带帶 绪緒 讨討 车車 责責 听聽 围圍 绕繞 赞贊 体體 认認 同同 具具 计計 划劃 项項 排排 区區 开開 学學 前前 各各 降降 低低 成成 本本 安安 校校',
  ]
    .join(' ')
    .split(/\s+/)
    .filter((p) => [...p].length === 2)
    .map((p) => [...p] as [string, string]),
);

/** `text` in traditional characters (by {@link HANT}). */
export function toHant(text: string): string {
  if (text.includes('阿里巴巴')) return text.split('阿里巴巴').map(toHant).join('阿里巴巴');
  let out = '';
  for (const ch of text) out += HANT[ch] ?? ch;
  return out;
}

const RAW: Record<'en' | 'es' | 'zh', Record<Intent, readonly Raw[]>> = { en: EN, es: ES, zh: ZH };

/** Every template, by language. */
export function intentTemplates(lang: IntentLang): IntentTemplate[] {
  const base = lang === 'zh-Hans' || lang === 'zh-Hant' ? 'zh' : lang;
  const out: IntentTemplate[] = [];
  for (const [intent, raws] of Object.entries(RAW[base]) as [Intent, readonly Raw[]][]) {
    raws.forEach(([text, scopes, session], i) => {
      const t = lang === 'zh-Hant' ? toHant(text) : text;
      const s = session && lang === 'zh-Hant' ? toHant(session) : session;
      out.push({ id: `${intent}.${base}.${String(i + 1).padStart(2, '0')}`, intent, text: t, scopes: scopes.split(' ') as Scope[], ...(s ? { session: s } : {}) });
    });
  }
  if (lang === 'zh-Hant') {
    for (const [intent, raws] of Object.entries(ZH_HANT_OWN) as [Intent, readonly Raw[]][]) {
      raws.forEach(([text, scopes, session], i) => out.push({ id: `${intent}.zht.${String(i + 1).padStart(2, '0')}`, intent, text, scopes: scopes.split(' ') as Scope[], ...(session ? { session } : {}) }));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Fillers and the corpus they live in
// ---------------------------------------------------------------------------

interface ItemNoun {
  this: string;
  the: string;
  del: string;
  item: string;
  items: string;
}

interface Fillers {
  topics: readonly string[];
  /** Speakers of the meeting and of the video, as a question names them. */
  meetingSpeakers: readonly string[];
  videoSpeakers: readonly string[];
  /** Named things: linked ones (said in the transcripts) and names the corpus does not know. */
  names: readonly string[];
  meetingNouns: readonly ItemNoun[];
  videoNouns: readonly ItemNoun[];
  times: readonly string[];
  /** Templates for a citation number ("{n}" already in the template; here only the numbers). */
  numbers: readonly number[];
}

const en = (one: string, many: string, demonstrative = 'this'): ItemNoun => ({ this: `${demonstrative} ${one}`, the: `the ${one}`, del: `of the ${one}`, item: one, items: many });
const es = (one: string, many: string, masc: boolean): ItemNoun => ({
  this: `${masc ? 'este' : 'esta'} ${one}`, the: `${masc ? 'el' : 'la'} ${one}`, del: `${masc ? 'del' : 'de la'} ${one}`, item: one, items: many,
});
const zh = (self: string, one: string, many = one): ItemNoun => ({ this: self, the: self, del: self, item: one, items: many });

const FILLERS: Record<'en' | 'es' | 'zh', Fillers> = {
  en: {
    topics: ['the battery', 'the budget', 'remote work', 'the new pricing', 'the launch plan', 'the speech recognizer', 'climate policy', 'the training schedule', 'mental health', 'artificial intelligence', 'the rubber case', 'school funding', 'the plan to cut costs before the product launch next spring', 'how the new campus will be staffed'],
    meetingSpeakers: ['Daniel', 'Laura', 'the project manager', 'Marketing', 'PhD A', 'PhD B'],
    videoSpeakers: ['Sam', 'Nora'],
    names: ['Microsoft', 'Tesla', 'Maria Lopez', 'Luo Xinghan', 'Kun Sa', 'Netflix', 'Aurora'],
    meetingNouns: [en('meeting', 'meetings'), en('discussion', 'discussions'), en('session', 'sessions')],
    videoNouns: [en('video', 'videos'), en('episode', 'episodes'), en('podcast', 'podcasts'), en('interview', 'interviews'), en('talk', 'talks')],
    times: ['in the first 10 minutes', 'after the 30-minute mark', 'between minute 5 and 9', 'in the first hour', 'during the first half hour', 'after minute 20'],
    numbers: [1, 2, 3, 4, 5, 7, 12],
  },
  es: {
    topics: ['la batería', 'el presupuesto', 'el teletrabajo', 'la inteligencia artificial', 'la dieta', 'el entrenamiento', 'la ciberseguridad', 'los impuestos', 'la salud mental', 'el precio de la vivienda', 'los preparativos para abrir la nueva tienda en verano', 'cómo se va a repartir el trabajo del equipo'],
    meetingSpeakers: ['Marta', 'Pedro', 'Lucía', 'Andrés'],
    videoSpeakers: ['Jordi', 'Carla'],
    names: ['Dior', 'Hawkers', 'Telefónica', 'Luo Xinghan', 'Real Madrid', 'Netflix'],
    meetingNouns: [es('reunión', 'reuniones', false), es('charla', 'charlas', false)],
    videoNouns: [es('vídeo', 'vídeos', true), es('episodio', 'episodios', true), es('programa', 'programas', true), es('entrevista', 'entrevistas', false), es('podcast', 'podcasts', true)],
    times: ['en los primeros 10 minutos', 'después del minuto 30', 'entre el minuto 2 y el 7', 'en la primera hora', 'a partir del minuto 15', 'en la primera media hora'],
    numbers: [1, 2, 3, 4, 6, 9],
  },
  zh: {
    topics: ['电池', '预算', '远程办公', '人工智能', '芯片短缺', '教育', '开源生态', '门票价格', '数据隐私', '新能源汽车', '明年降低成本的具体计划', '新校区开学前的各项安排'],
    meetingSpeakers: ['王晓明', '李娜', '陈启蒙'],
    videoSpeakers: ['张伟', '刘洋'],
    names: ['华为', '腾讯', '阿里巴巴', '比亚迪', '罗星汉', '坤沙'],
    meetingNouns: [zh('这场会议', '会议'), zh('这次讨论', '讨论'), zh('这场圆桌', '圆桌')],
    videoNouns: [zh('这个视频', '视频'), zh('这期节目', '节目'), zh('这次访谈', '访谈'), zh('这段视频', '视频')],
    times: ['前十分钟', '前20分钟', '第30分钟以后', '前半小时', '第二个小时', '10分钟之后'],
    numbers: [1, 2, 3, 4, 5, 8],
  },
};

/** The fillers of `lang` (traditional Chinese converted). */
function fillersOf(lang: IntentLang): Fillers {
  if (lang === 'en' || lang === 'es') return FILLERS[lang];
  const f = FILLERS.zh;
  if (lang === 'zh-Hans') return f;
  const conv = (xs: readonly string[]): string[] => xs.map(toHant);
  const nouns = (xs: readonly ItemNoun[]): ItemNoun[] => xs.map((n) => ({ this: toHant(n.this), the: toHant(n.the), del: toHant(n.del), item: toHant(n.item), items: toHant(n.items) }));
  return { ...f, topics: conv(f.topics), meetingSpeakers: conv(f.meetingSpeakers), videoSpeakers: conv(f.videoSpeakers), names: conv(f.names), meetingNouns: nouns(f.meetingNouns), videoNouns: nouns(f.videoNouns), times: conv(f.times) };
}

/** The ids of the items of `lang`. */
export const itemIds = (lang: IntentLang): { meeting: string; video: string } => ({ meeting: `${lang}-meeting`, video: `${lang}-video` });

/** Transcript turns of each language's meeting and video: every speaker and linked name is said. */
function turnsOf(lang: IntentLang): { meeting: { speaker: string; text: string }[]; video: { speaker: string; text: string }[]; comments: string[] } {
  if (lang === 'en') {
    return {
      meeting: [
        { speaker: 'Project Manager', text: 'Let us start with the budget for the remote control.' },
        { speaker: 'Daniel', text: 'Microsoft sent new numbers for the speech recognizer yesterday.' },
        { speaker: 'Laura', text: 'I think the battery is still too expensive compared with what Tesla pays.' },
        { speaker: 'Marketing', text: 'Our survey says people want a rubber case and a cheaper price.' },
        { speaker: 'PhD A', text: 'The Aurora results improved by twelve percent on the noisy set.' },
        { speaker: 'PhD B', text: 'I disagree, Maria Lopez showed the gains come from the silence model.' },
        { speaker: 'Daniel', text: 'We should check the training schedule before the deadline.' },
      ],
      video: [
        { speaker: 'Sam', text: 'Welcome back, today Nora tells us about her years at Netflix.' },
        { speaker: 'Nora', text: 'Remote work changed everything for our team and for mental health.' },
        { speaker: 'Sam', text: 'And what about artificial intelligence and the new pricing?' },
        { speaker: 'Nora', text: 'Honestly, climate policy matters more to me than any gadget.' },
      ],
      comments: ['Great episode, Nora is brilliant!', 'Sam interrupts too much.', 'The part about remote work was so true.', 'Check my channel for more!', 'Netflix stories are always fun.'],
    };
  }
  if (lang === 'es') {
    return {
      meeting: [
        { speaker: 'Marta', text: 'Empecemos por el presupuesto y la batería del prototipo.' },
        { speaker: 'Pedro', text: 'Telefónica nos pidió otra propuesta para el teletrabajo.' },
        { speaker: 'Lucía', text: 'No estoy de acuerdo, la ciberseguridad es lo primero.' },
        { speaker: 'Andrés', text: 'Los impuestos subieron y el precio de la vivienda también.' },
      ],
      video: [
        { speaker: 'Jordi', text: 'Hoy Carla nos cuenta cómo trabajó para Dior y para Hawkers.' },
        { speaker: 'Carla', text: 'La dieta y el entrenamiento son la base, como en el Real Madrid.' },
        { speaker: 'Jordi', text: '¿Y la inteligencia artificial? ¿Y Netflix?' },
        { speaker: 'Carla', text: 'La salud mental importa más que cualquier contrato.' },
      ],
      comments: ['¡Qué gran episodio, Carla es genial!', 'Jordi interrumpe demasiado.', 'Lo de la dieta me sirvió mucho.', 'Suscríbete a mi canal.', 'Lo de Dior no me lo creo.'],
    };
  }
  const z = (s: string): string => (lang === 'zh-Hant' ? toHant(s) : s);
  return {
    meeting: [
      { speaker: 'speaker_1', text: z('大家好，我叫王晓明，我在华为负责电池研发。') },
      { speaker: 'speaker_2', text: z('我是李娜，来自腾讯。我认为人工智能还需要五年。') },
      { speaker: 'speaker_3', text: z('我是陈启蒙。阿里巴巴和比亚迪在预算上有分歧。') },
      { speaker: 'speaker_1', text: z('罗星汉和坤沙的故事大家都听过，芯片短缺也是老问题。') },
    ],
    video: [
      { speaker: 'speaker_1', text: z('欢迎收看，我是主持人张伟。') },
      { speaker: 'speaker_2', text: z('大家好，我是刘洋，今天聊聊教育和数据隐私。') },
      { speaker: 'speaker_1', text: z('门票价格和新能源汽车也是大家关心的。') },
    ],
    comments: [z('这期节目太精彩了！'), z('张伟说得有道理。'), z('刘洋讲教育那段很好。'), z('关注我的频道！')],
  };
}

/** The corpus of the labelled set: per language a meeting (no comments) and a video with comments. */
export function intentCorpus(): Corpus {
  const items: CorpusItem[] = [];
  for (const lang of INTENT_LANGS) {
    const t = turnsOf(lang);
    const ids = itemIds(lang);
    const timed = (turns: { speaker: string; text: string }[]) => turns.map((x, i) => ({ ...x, start: i * 300, end: i * 300 + 290 }));
    items.push({ ...itemOf(ids.meeting, { transcript: transcriptPart(timed(t.meeting), `${ids.meeting}/transcript.json`) }), title: `Meeting ${lang}` });
    items.push({
      ...itemOf(ids.video, { transcript: transcriptPart(timed(t.video), `${ids.video}/transcript.json`), comments: commentsPart(t.comments, `${ids.video}/comments.jsonl`) }),
      title: `Video ${lang}`,
    });
  }
  const words = items.reduce((n, i) => n + i.wordCount, 0);
  const comments = items.reduce((n, i) => n + (i.comments?.comments.length ?? 0), 0);
  return { root: '/nonexistent-intent-corpus', items, problems: [], stats: { items: items.length, transcripts: items.length, commentParts: INTENT_LANGS.length, words, comments, emptyComments: 0, skipped: 0, filesRead: 0 } };
}

// ---------------------------------------------------------------------------
// Composition
// ---------------------------------------------------------------------------

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** `template` with its slots filled from `f` (speakers of `scope`). */
function fill(template: string, f: Fillers, scope: Scope, r: () => number, fixed: Record<string, string>): string {
  const speakers = scope === 'meeting' ? f.meetingSpeakers : scope === 'video' ? f.videoSpeakers : [...f.meetingSpeakers, ...f.videoSpeakers];
  const nouns = scope === 'meeting' ? f.meetingNouns : scope === 'video' ? f.videoNouns : [...f.meetingNouns, ...f.videoNouns];
  const noun = fixed['noun'] !== undefined ? nouns[Number(fixed['noun']) % nouns.length]! : pick(r, nouns);
  const s = fixed['s'] ?? pick(r, speakers);
  let o = pick(r, speakers);
  for (let k = 0; o === s && k < 8; k++) o = pick(r, speakers);
  const e = fixed['e'] ?? pick(r, f.names);
  let g = pick(r, f.names);
  for (let k = 0; g === e && k < 8; k++) g = pick(r, f.names);
  const n = pick(r, f.numbers);
  let m = pick(r, f.numbers);
  for (let k = 0; m === n && k < 8; k++) m = pick(r, f.numbers);
  const vals: Record<string, string> = {
    t: fixed['t'] ?? pick(r, f.topics), u: '', s, o, e, f: g, this: noun.this, the: noun.the, del: noun.del, item: noun.item, items: noun.items,
    time: pick(r, f.times), n: String(n), m: String(m),
  };
  let u = pick(r, f.topics);
  for (let k = 0; u === vals['t'] && k < 8; k++) u = pick(r, f.topics);
  vals['u'] = u;
  const out = template.replace(/\{(\w+)\}/g, (all, k: string) => vals[k] ?? all).replace(/\s+([?.!,])/g, '$1');
  // Spanish contractions: "de el" → "del", "a el" → "al".
  return out.replace(/\b([Dd]e|[Aa]) el\b/g, (_m, p: string) => (p.toLowerCase() === 'de' ? `${p[0]}el` : `${p}l`));
}

/**
 * The labelled set: each template of each language composed `perTemplate` times (different
 * topics, speakers, names, nouns, times, numbers and scopes), the same for the same seed.
 */
export function intentQuestions(perTemplate = 6, seed = 23): LabelledQuestion[] {
  const r = rng(seed);
  const out: LabelledQuestion[] = [];
  for (const lang of INTENT_LANGS) {
    const f = fillersOf(lang);
    const ids = itemIds(lang);
    for (const tpl of intentTemplates(lang)) {
      const seen = new Set<string>();
      for (let k = 0; k < perTemplate * 3 && seen.size < perTemplate; k++) {
        const scope = tpl.scopes[k % tpl.scopes.length]!;
        const fixed: Record<string, string> = { noun: String(k), s: pick(r, scope === 'meeting' ? f.meetingSpeakers : scope === 'video' ? f.videoSpeakers : [...f.meetingSpeakers, ...f.videoSpeakers]), e: pick(r, f.names), t: pick(r, f.topics) };
        const question = fill(tpl.text, f, scope, r, fixed);
        if (seen.has(`${scope}|${question}`)) continue;
        seen.add(`${scope}|${question}`);
        const session = tpl.session ? [fill(tpl.session, f, scope, r, fixed)] : [];
        out.push({ template: tpl.id, lang, intent: tpl.intent, question, ...(scope === 'corpus' ? {} : { itemId: ids[scope] }), session, scope });
      }
    }
  }
  return out;
}
