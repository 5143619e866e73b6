/**
 * Whether a sentence states an opinion, in English, Spanish and Chinese: stance cues ("I
 * think", "creo que", "我觉得"), first-person judgement ("I agree", "estoy de acuerdo", "我支持"),
 * modal recommendation ("we should", "hay que", "应该") and an evaluative word after a copula
 * ("is really important", "es muy difícil", "很重要"). Heuristics, labelled as extractive wherever
 * their output appears.
 */

const EN_CUES =
  /\b(?:i|we) (?:think|believe|feel|guess|reckon|suppose|suspect|doubt|agree|disagree|prefer|recommend|would (?:say|argue|suggest)|'d (?:say|argue)|am (?:sure|convinced|not sure)|'m (?:sure|convinced|not sure))\b|\bin my (?:opinion|view|experience)\b|\bpersonally\b|\bto me,|\bmy (?:view|opinion|feeling|sense) is\b|\b(?:we|you|they|i|one|people) (?:should|ought to|must)\b|\b(?:should|shouldn't|ought to) (?:be|have|not)\b|\bit (?:seems|sounds|looks) (?:like|to me)\b|\bit(?:'s| is| was) (?:(?:really|very|quite|so|too|pretty|extremely|absolutely|more|less|most|least) )?(?:important|crucial|essential|key|vital|critical|good|great|bad|terrible|awful|wonderful|amazing|brilliant|useful|useless|helpful|interesting|boring|difficult|hard|easy|fair|unfair|wrong|right|ridiculous|silly|stupid|smart|clever|worth|worrying|concerning|surprising|disappointing|impressive|better|worse|best|worst|problematic|unacceptable|necessary|unnecessary)\b|\b(?:better|worse) than\b|\bthe (?:best|worst|most important|biggest problem)\b|\bnot (?:enough|good enough)\b|\btoo (?:much|many|expensive|slow|late)\b/i;

const ES_CUES =
  /(?<![\p{L}])(?:creo|pienso|opino|considero|supongo|sospecho|dudo) que(?![\p{L}])|(?<![\p{L}])(?:me|nos) (?:parece|parecen|encanta|encantan|gusta|gustan|preocupa)(?![\p{L}])|(?<![\p{L}])en mi (?:opinión|experiencia)(?![\p{L}])|(?<![\p{L}])para mí(?![\p{L}])|(?<![\p{L}])(?:no )?estoy de acuerdo(?![\p{L}])|(?<![\p{L}])prefiero(?![\p{L}])|(?<![\p{L}])odio(?![\p{L}])|(?<![\p{L}])(?:deberíamos|debería|deberían|debemos|hay que|tenemos que|tienes que)(?![\p{L}])|(?<![\p{L}])(?:es|era|fue|sería) (?:(?:muy|súper|tan|bastante|realmente|más|menos) )?(?:importante|fundamental|clave|necesario|necesaria|bueno|buena|malo|mala|mejor|peor|difícil|fácil|increíble|genial|horrible|interesante|injusto|justo|brutal|espectacular|ridículo)(?![\p{L}])|(?<![\p{L}])lo (?:mejor|peor|importante|bueno|malo) (?:es|fue|de)(?![\p{L}])/iu;

const ZH_CUES = /我(?:认为|觉得|相信|感觉|个人|希望|同意|不同意|支持|反对|建议|喜欢|讨厌|担心)|个人认为|在我看来|我的(?:看法|观点|意见)|应该|必须|值得|一定要|最好|不公平|(?:很|非常|特别|太|挺|比较|更|最)(?:重要|关键|好|差|难|容易|有用|有意思|有趣|值得|合理|不合理|贵|便宜)|关键是|恐怕|说实话|其实/u;

/** True when `text` states an opinion (stance, judgement, recommendation or evaluation). */
export function isOpinion(text: string): boolean {
  return EN_CUES.test(text) || ES_CUES.test(text) || ZH_CUES.test(text);
}
