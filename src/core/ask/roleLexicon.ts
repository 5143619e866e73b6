/**
 * The role lexicon behind the speaker-label classifier (speakerLabels.ts): the
 * small closed classes of words that make a speaker label a role or an
 * anonymous id rather than a person's name, in English, Spanish and Chinese.
 *
 * No maintained package lists role nouns (stopwords-iso has function words
 * only), so this is a documented, deliberately small lexicon of role HEADS
 * (the noun a role label is built on: manager, host, presentador, 主持人),
 * MODIFIERS (what precedes or follows a head in a role: project, senior,
 * adjunto, 项目), HONORIFICS and POST-NOMINALS (around a name), and GENERIC
 * nouns of anonymous ids (speaker, hablante, 说话人). The classifier combines
 * it with grammar — "X Manager" (modifiers before an English head), "Jefe de
 * Y" (a head's complement after de/of), "Professor Smith" (a title before a
 * name), letter and number codes, the item's own capitalisation — so a label
 * it has never seen still classifies when its head is here.
 *
 * Extending: add the singular, lower-case form of a head; English plurals
 * (-s, -es) and Spanish gender and plural forms are derived (write
 * `presentador/a`, `invitado/a`, `anfitrión/ona`). Chinese heads are matched
 * as prefixes or suffixes of a label, simplified and traditional both listed.
 */

/** English role heads: the noun a role label is built on. */
const EN_HEADS = `
manager director chair chairman chairwoman chairperson cochair co-chair president vice-president chancellor secretary treasurer
member host cohost co-host moderator presenter facilitator interviewer interviewee guest panelist panellist speaker narrator
announcer anchor reporter journalist correspondent commentator analyst caller listener viewer audience participant attendee
delegate representative rep spokesperson spokesman spokeswoman student grad undergrad undergraduate graduate postdoc phd
professor prof lecturer teacher instructor tutor trainer coach researcher scientist engineer designer developer programmer
architect consultant expert specialist advisor adviser assistant associate intern volunteer staff employee officer executive
ceo cto cfo coo cmo founder cofounder co-founder owner lead head leader supervisor coordinator organizer organiser
administrator admin editor producer writer translator interpreter operator technician minister senator mayor governor
councillor councilor clerk witness judge attorney lawyer counsel prosecutor defendant plaintiff doctor physician nurse patient
client customer user buyer seller vendor contestant player captain candidate applicant respondent observer notetaker
note-taker scribe recorder timekeeper master sponsor stakeholder chief deputy commissioner inspector agent partner investor
planner strategist marketer salesperson therapist counselor counsellor principal dean provost rector chaplain pastor priest
mc emcee dj voice voiceover narration crew team panel committee board taker keeper holder maker court bench jury juror justice
parent child kid mother father mom mum dad son daughter wife husband friend neighbor neighbour boy girl man woman baby teen
teenager resident citizen fan
marketing sales finance engineering design research legal hr support production management operations security
administration accounting ux ui qa pr communications interface
`;

/** English modifiers of a head ("Project Manager", "Acting Chair", "User Interface", "Industrial Designer"). */
const EN_MODIFIERS = `
project product program programme general senior junior chief executive deputy vice assistant associate acting interim
regional national technical creative art user industrial graphic software hardware data content social media community
account public relations human resources customer team department news studio field special invited keynote main lead co
first second third fourth fifth other external internal local guest committee board panel scrum tech medical financial
principal visiting teaching managing editorial sound off-screen offscreen unknown male female
`;

/** Spanish role heads; `x/a` and `x/ona` give the feminine. */
const ES_HEADS = `
presentador/a conductor/a entrevistador/a entrevistado/a moderador/a invitado/a anfitrión/ona locutor/a narrador/a periodista
reportero/a corresponsal comentarista tertuliano/a colaborador/a analista experto/a especialista asesor/a consultor/a profesor/a
maestro/a docente estudiante alumno/a investigador/a doctor/a médico/a enfermero/a paciente abogado/a juez/a fiscal testigo
director/a gerente jefe/a presidente/a vicepresidente/a secretario/a tesorero/a ministro/a diputado/a senador/a alcalde alcaldesa
concejal/a portavoz representante delegado/a miembro participante asistente oyente público espectador/a usuario/a cliente
coordinador/a organizador/a responsable encargado/a fundador/a dueño/a propietario/a diseñador/a ingeniero/a desarrollador/a
programador/a productor/a editor/a redactor/a traductor/a intérprete técnico/a jugador/a entrenador/a capitán/ana candidato/a
hablante orador/a interlocutor/a voz audiencia equipo padre madre hijo/a niño/a hombre mujer vecino/a amigo/a chico/a señor/a
`;

/** Spanish modifiers ("Gerente General", "Director Adjunto", "Primer Ministro"). */
const ES_MODIFIERS = 'general adjunto/a ejecutivo/a técnico/a principal invitado/a senior junior primer primero/a segundo/a tercer tercero/a co externo/a interno/a especial';

/** Titles and honorifics before a name ("Mr.", "Hon.", "Dra.", "Don"); "Dr. A" stays a code. */
const HONORIFIC_WORDS = 'mr mrs ms miss mx dr prof sir dame lord lady hon honourable honorable right rt rev reverend fr sr sra srta don doña dña lic ing dra mme mlle herr frau señor señora señorita';

/** Letters after a name ("Kirsty Williams AM", "Jr.", "QC"). */
const POST_NOMINAL_WORDS = 'am ms mp msp mla mpp mep qc kc jr md obe mbe cbe esq';

/** Articles that open a role noun phrase ("The Chair", "El Presentador"). */
const ARTICLE_WORDS = 'the a an el la los las lo un una';

/** Prepositions that open a head's complement ("Minister of Finance", "Jefe de Proyecto"). */
const PREPOSITION_WORDS = 'of for on at in to de del para en y and &';

/** Nouns of anonymous ids when followed by a number or letter ("speaker_3", "Hablante 2", "P1"), and labels that name nobody ("Unknown"). */
const GENERIC_EN = 'speaker spk spkr sp s participant person p voice v unknown unidentified user u caller respondent interviewee guest';
const GENERIC_ES = 'hablante orador oradora interlocutor interlocutora locutor locutora participante persona voz desconocido desconocida usuario usuaria invitado invitada';
const GENERIC_WHOLE = 'unknown unidentified other others multiple several all everyone everybody crowd various desconocido desconocida otro otros varios varias todos todas público 未知 其他 多人 众人 眾人 大家 全体 全體';

/** Chinese role heads (simplified and traditional): matched at a label's start or end ("主持人", "产品经理", "王老师"). */
const ZH_HEADS = `
主持人 主持 记者 記者 嘉宾 嘉賓 老师 老師 委员 委員 主任 主席 副主席 经理 經理 总经理 總經理 总监 總監 教授 副教授 博士 硕士 碩士
学生 學生 同学 同學 医生 醫生 护士 護士 律师 律師 观众 觀眾 听众 聽眾 网友 網友 专家 專家 代表 领导 領導 秘书 秘書 书记 書記
院长 院長 校长 校長 所长 所長 部长 部長 局长 局長 处长 處長 科长 科長 组长 組長 班长 班長 会长 會長 董事长 董事長 董事 总裁 總裁
讲师 講師 研究员 研究員 工程师 工程師 设计师 設計師 分析师 分析師 翻译 翻譯 主播 旁白 解说 解說 评论员 評論員 采访者 採訪者
受访者 受訪者 提问者 提問者 主讲人 主講人 顾问 顧問 助理 助教 编辑 編輯 制片人 製片人 导演 導演 队长 隊長 教练 教練 裁判 法官
证人 證人 议员 議員 市长 市長 省长 省長 总统 總統 总理 總理 主管 负责人 負責人 创始人 創始人 合伙人 合夥人 老板 老闆 客户 客戶
用户 用戶 甲方 乙方 员工 員工 成员 成員 代表 发言人 發言人 讲者 講者 主讲 主講 总 總 先生 女士 小姐 部 组 組 团队 團隊
`;

/** Chinese nouns of anonymous ids before a number or letter ("说话人1", "发言人 2", "嘉宾A"). */
const ZH_GENERIC = '说话人 說話人 发言人 發言人 讲话人 講話人 讲者 講者 发言者 發言者 说话者 說話者 参与者 參與者 与会者 與會者 参会者 參會者 角色 人物 用户 用戶 嘉宾 嘉賓 主持人 观众 觀眾 选手 選手 人';

const words = (s: string): string[] => s.split(/\s+/u).filter(Boolean);

/** `presentador/a` → presentador, presentadora; `invitado/a` → invitado, invitada; `anfitrión/ona` → anfitrión, anfitriona. */
function feminine(entry: string): string[] {
  const [base, fem] = entry.split('/') as [string, string | undefined];
  if (!fem) return [base];
  if (fem === 'a') return /[oe]$/u.test(base) ? [base, `${base.slice(0, -1)}a`] : [base, `${base}a`];
  // "anfitrión/ona" → anfitriona, "capitán/ana" → capitana: the ending replaces the accented last syllable.
  const stem = base.replace(/[óá]n$/u, '');
  return [base, `${stem}${fem}`];
}

const toSet = (list: string[]): ReadonlySet<string> => new Set(list.map((w) => w.toLowerCase()));

/** English and Spanish role heads, lower case (derived plurals are checked by {@link isRoleHead}). */
export const ROLE_HEADS = toSet([...words(EN_HEADS), ...words(ES_HEADS).flatMap(feminine)]);
/** English and Spanish role modifiers, lower case. */
export const ROLE_MODIFIERS = toSet([...words(EN_MODIFIERS), ...words(ES_MODIFIERS).flatMap(feminine)]);
export const HONORIFICS = toSet(words(HONORIFIC_WORDS));
export const POST_NOMINALS = toSet(words(POST_NOMINAL_WORDS));
export const ARTICLES = toSet(words(ARTICLE_WORDS));
export const PREPOSITIONS = toSet(words(PREPOSITION_WORDS));
/** Nouns of anonymous ids (Latin script), lower case. */
export const GENERIC_NOUNS = toSet([...words(GENERIC_EN), ...words(GENERIC_ES)]);
/** Whole labels that name nobody in particular. */
export const GENERIC_LABELS = toSet(words(GENERIC_WHOLE));
/** Chinese role heads, longest first (so 总经理 is found before 经理 and 总). */
export const ZH_ROLE_HEADS: readonly string[] = [...new Set(words(ZH_HEADS))].sort((a, b) => b.length - a.length);
/** Chinese nouns of anonymous ids, longest first. */
export const ZH_GENERIC_NOUNS: readonly string[] = [...new Set(words(ZH_GENERIC))].sort((a, b) => b.length - a.length);

/** A word (lower case) that is a role head, directly or as an English/Spanish plural ("hosts", "moderadores"). */
export function isRoleHead(lower: string): boolean {
  if (ROLE_HEADS.has(lower)) return true;
  if (lower.endsWith('es') && ROLE_HEADS.has(lower.slice(0, -2))) return true;
  return lower.endsWith('s') && ROLE_HEADS.has(lower.slice(0, -1));
}
