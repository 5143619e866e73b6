/**
 * Spanish verbs a person does, or that are done to a person, conjugated by the
 * rules of Spanish grammar (regular endings, stem changes e→ie, o→ue, e→i,
 * -uir/-eer verbs, strong preterites, irregular futures and participles) into
 * the forms coreference needs: third-person finite forms (a null subject:
 * "¿Qué dijo después?"), finite forms a clitic stands before ("¿Lo critican?"),
 * and the infinitive, gerund and imperative a clitic is attached to
 * ("preguntarle", "criticándolo", "pregúntale").
 *
 * The list is a closed lexicon of reporting, thinking and social verbs, written
 * from general knowledge of the language — not from any question set.
 */

/** Present-tense stem change; `uy` for -uir verbs (concluye), `y` for -eer verbs (creyó). */
type Change = 'ie' | 'ue' | 'i' | 'zc' | 'uy' | 'y';

interface Irregular {
  /** Present 3rd singular (dice, va, está). */
  p3s?: string;
  /** Present 1st singular, the stem of the present subjunctive (digo → diga). */
  p1s?: string;
  /** Strong preterite stem (dij → dijo, dijeron). */
  pret?: string;
  /** Preterite 3rd singular when not stem + o (fue, dio). */
  pret3s?: string;
  pret3p?: string;
  /** Imperfect 3rd singular (iba, veía). */
  impf?: string;
  /** Future and conditional stem (dir → dirá, diría). */
  fut?: string;
  ger?: string;
  part?: string;
  /** Imperative of tú (di, haz, pon). */
  impTu?: string;
  /** Present subjunctive 3rd singular when not from p1s (sepa, vaya, esté). */
  subj?: string;
}

interface VerbSpec {
  inf: string;
  change?: Change;
  /** Takes a person as direct object ("lo critican" = they criticise him; "lo dijo" = he said it). */
  obj?: boolean;
  /** Pronominal: its "se" is the subject's own ("se mudó"), not an impersonal "se" ("se dijo"). */
  pron?: boolean;
  /** Takes no direct object: a noun phrase after it is its subject ("¿Cómo empezó el episodio?"). */
  intr?: boolean;
  irr?: Irregular;
}

const POSTPONER: Irregular = { p1s: 'pongo', pret: 'pus', fut: 'pondr', part: 'puesto', impTu: 'pon' };
const TENER: Irregular = { p3s: 'tiene', p1s: 'tengo', pret: 'tuv', fut: 'tendr', impTu: 'ten' };

const VERBS: readonly VerbSpec[] = [
  // Saying and telling.
  { inf: 'decir', irr: { p3s: 'dice', p1s: 'digo', pret: 'dij', fut: 'dir', ger: 'diciendo', part: 'dicho', impTu: 'di' } },
  { inf: 'opinar', intr: true }, { inf: 'comentar' }, { inf: 'afirmar' }, { inf: 'responder', intr: true }, { inf: 'contestar', intr: true }, { inf: 'hablar', intr: true },
  { inf: 'contar', change: 'ue' }, { inf: 'explicar' }, { inf: 'plantear' }, { inf: 'argumentar' }, { inf: 'admitir' },
  { inf: 'insistir', intr: true }, { inf: 'añadir' }, { inf: 'aclarar' }, { inf: 'concluir', change: 'uy' }, { inf: 'señalar' },
  { inf: 'confesar', change: 'ie' }, { inf: 'revelar' }, { inf: 'relatar' }, { inf: 'narrar' }, { inf: 'asegurar' },
  { inf: 'advertir', change: 'ie' }, { inf: 'negar', change: 'ie' }, { inf: 'prometer' }, { inf: 'anunciar' },
  { inf: 'sostener', irr: { ...TENER, p3s: 'sostiene', p1s: 'sostengo', pret: 'sostuv', fut: 'sostendr', impTu: 'sostén' } },
  { inf: 'proponer', irr: { ...POSTPONER, p1s: 'propongo', pret: 'propus', fut: 'propondr', part: 'propuesto', impTu: 'propón' } },
  { inf: 'sugerir', change: 'ie' }, { inf: 'mencionar', obj: true }, { inf: 'recomendar', change: 'ie', obj: true },
  { inf: 'preguntar', obj: true }, { inf: 'pedir', change: 'i' }, { inf: 'discutir' }, { inf: 'debatir' }, { inf: 'reaccionar', intr: true },
  { inf: 'compartir' }, { inf: 'justificar' }, { inf: 'mostrar', change: 'ue' }, { inf: 'enseñar' }, { inf: 'presentar', obj: true },
  { inf: 'describir', obj: true, irr: { part: 'descrito' } }, { inf: 'escribir', irr: { part: 'escrito' } }, { inf: 'publicar' },
  // Thinking and knowing.
  { inf: 'pensar', change: 'ie' }, { inf: 'creer', change: 'y' }, { inf: 'considerar', obj: true }, { inf: 'valorar', obj: true },
  { inf: 'juzgar', obj: true }, { inf: 'preferir', change: 'ie' }, { inf: 'decidir' }, { inf: 'sentir', change: 'ie' },
  { inf: 'querer', change: 'ie', obj: true, irr: { pret: 'quis', fut: 'querr' } },
  { inf: 'saber', irr: { p3s: 'sabe', p1s: 'sé', pret: 'sup', fut: 'sabr', impTu: 'sabe', subj: 'sepa' } },
  { inf: 'conocer', change: 'zc', obj: true }, { inf: 'reconocer', change: 'zc', obj: true }, { inf: 'recordar', change: 'ue', obj: true },
  { inf: 'entender', change: 'ie' }, { inf: 'aprender' }, { inf: 'estudiar' },
  // What people do to a person.
  { inf: 'criticar', obj: true }, { inf: 'defender', change: 'ie', obj: true }, { inf: 'elogiar', obj: true }, { inf: 'apoyar', obj: true },
  { inf: 'atacar', obj: true }, { inf: 'acusar', obj: true }, { inf: 'culpar', obj: true }, { inf: 'entrevistar', obj: true },
  { inf: 'invitar', obj: true }, { inf: 'llamar', obj: true, pron: true }, { inf: 'escuchar', obj: true }, { inf: 'seguir', change: 'i', obj: true, irr: { p1s: 'sigo' } },
  { inf: 'admirar', obj: true }, { inf: 'respetar', obj: true }, { inf: 'insultar', obj: true }, { inf: 'felicitar', obj: true },
  { inf: 'contratar', obj: true }, { inf: 'despedir', change: 'i', obj: true }, { inf: 'comparar', obj: true }, { inf: 'imitar', obj: true },
  { inf: 'odiar', obj: true }, { inf: 'citar', obj: true }, { inf: 'nombrar', obj: true }, { inf: 'convencer', obj: true, irr: { p1s: 'convenzo' } },
  { inf: 'ayudar', obj: true }, { inf: 'engañar', obj: true }, { inf: 'detener', obj: true, irr: { ...TENER, p3s: 'detiene', p1s: 'detengo', pret: 'detuv', fut: 'detendr', impTu: 'detén' } }, { inf: 'destacar', obj: true },
  { inf: 'ver', obj: true, irr: { p3s: 've', p1s: 'veo', pret3s: 'vio', pret3p: 'vieron', impf: 'veía', part: 'visto', impTu: 've' } },
  // A life: what a person does.
  { inf: 'empezar', change: 'ie', intr: true }, { inf: 'comenzar', change: 'ie', intr: true }, { inf: 'trabajar', intr: true }, { inf: 'vivir', intr: true }, { inf: 'ganar' },
  { inf: 'perder', change: 'ie' }, { inf: 'fundar' }, { inf: 'crear' }, { inf: 'lograr' }, { inf: 'conseguir', change: 'i', irr: { p1s: 'consigo' } },
  { inf: 'hacer', irr: { p3s: 'hace', p1s: 'hago', pret: 'hic', pret3s: 'hizo', fut: 'har', part: 'hecho', impTu: 'haz' } },
  { inf: 'tener', irr: TENER },
  { inf: 'estar', intr: true, irr: { p3s: 'está', p1s: 'estoy', pret: 'estuv', impTu: 'está', subj: 'esté' } },
  { inf: 'ir', intr: true, irr: { p3s: 'va', p1s: 'voy', pret3s: 'fue', pret3p: 'fueron', impf: 'iba', fut: 'ir', ger: 'yendo', part: 'ido', impTu: 've', subj: 'vaya' } },
  { inf: 'mudar', pron: true, intr: true }, { inf: 'quejar', pron: true, intr: true }, { inf: 'dedicar', pron: true, intr: true }, { inf: 'arrepentir', change: 'ie', pron: true, intr: true },
  { inf: 'retirar', pron: true, intr: true }, { inf: 'referir', change: 'ie', pron: true, intr: true }, { inf: 'enfadar', pron: true, intr: true }, { inf: 'equivocar', pron: true, intr: true },
];

/** Finite forms that are also common nouns ("la pregunta", "la entrevista", "la cuenta"): a clitic reading needs a stronger cue before it. */
export const NOUN_HOMOGRAPHS = new Set(['pregunta', 'preguntas', 'entrevista', 'entrevistas', 'cuenta', 'cuentas', 'cita', 'citas', 'ayuda', 'ayudas', 'llama', 'llamas', 'muestra', 'muestras', 'critica', 'criticas', 'gana', 'ganas', 'crea', 'sigue']);

/** Third-person forms that are no person's act in most questions: "hace dos años" (two years ago), "fue" (also "was"), "¿Cómo va?". */
const NOT_NULL_SUBJECT = new Set(['hace', 'hacen', 'fue', 'va', 'iba']);

export type FormKind = 'finite' | 'infinitive' | 'gerund' | 'participle' | 'imperative';

export interface VerbForm {
  lemma: string;
  kind: FormKind;
  /** For a finite form: third singular, third plural, or another person. */
  person?: '3sg' | '3pl' | 'other';
  obj: boolean;
  pron: boolean;
  /** Takes a direct object. */
  transitive: boolean;
}

const stripAccents = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/** The stem with its last `from` vowel changed ("pens" e→ie "piens"). */
function changeLast(stem: string, from: string, to: string): string {
  const at = stem.lastIndexOf(from);
  return at < 0 ? stem : stem.slice(0, at) + to + stem.slice(at + 1);
}

/** Orthographic changes of an -ar stem before e: c→qu, g→gu, z→c (critique, juzgue, empiece). */
function beforeE(stem: string): string {
  return stem.replace(/c$/u, 'qu').replace(/g$/u, 'gu').replace(/z$/u, 'c');
}

/** Every form of one verb with its kind and person. */
function conjugate(v: VerbSpec): [string, FormKind, VerbForm['person']][] {
  const out: [string, FormKind, VerbForm['person']][] = [];
  const fin = (f: string, p: VerbForm['person']): void => void out.push([f, 'finite', p]);
  const inf = v.inf;
  const cls = inf.endsWith('ar') ? 'ar' : inf.endsWith('er') ? 'er' : 'ir';
  const stem = inf.slice(0, -2) || inf;
  const irr = v.irr ?? {};
  const ch = v.change;
  // Present.
  let pStem = stem;
  if (ch === 'ie') pStem = changeLast(stem, 'e', 'ie');
  else if (ch === 'ue') pStem = changeLast(stem, 'o', 'ue');
  else if (ch === 'i') pStem = changeLast(stem, 'e', 'i');
  else if (ch === 'uy') pStem = `${stem}y`;
  const vowel = cls === 'ar' ? 'a' : 'e';
  const p3s = irr.p3s ?? `${pStem}${vowel}`;
  fin(p3s, '3sg');
  fin(`${p3s}n`, '3pl');
  fin(`${p3s}s`, 'other');
  fin(`${stem}${cls === 'ar' ? 'amos' : cls === 'er' ? 'emos' : 'imos'}`, 'other');
  const p1s = irr.p1s ?? (ch === 'zc' ? `${stem.slice(0, -1)}zco` : `${pStem}o`);
  fin(p1s, 'other');
  // Preterite: -ir stem changers close e→i, o→u in the third persons and the gerund (sintió, pidió, durmió).
  const closed = cls === 'ir' && (ch === 'ie' || ch === 'i') ? changeLast(stem, 'e', 'i') : cls === 'ir' && ch === 'ue' ? changeLast(stem, 'o', 'u') : stem;
  if (irr.pret) {
    fin(irr.pret3s ?? `${irr.pret}o`, '3sg');
    fin(irr.pret3p ?? `${irr.pret}${irr.pret.endsWith('j') ? 'eron' : 'ieron'}`, '3pl');
    fin(`${irr.pret}e`, 'other');
    fin(`${irr.pret}iste`, 'other');
    fin(`${irr.pret}imos`, 'other');
  } else if (irr.pret3s) {
    fin(irr.pret3s, '3sg');
    if (irr.pret3p) fin(irr.pret3p, '3pl');
  } else if (cls === 'ar') {
    fin(`${stem}ó`, '3sg');
    fin(`${stem}aron`, '3pl');
    fin(`${beforeE(stem)}é`, 'other');
    fin(`${stem}aste`, 'other');
  } else if (ch === 'uy' || ch === 'y') {
    fin(`${stem}yó`, '3sg');
    fin(`${stem}yeron`, '3pl');
    fin(`${stem}í`, 'other');
    fin(`${stem}iste`, 'other');
  } else {
    fin(`${closed}ió`, '3sg');
    fin(`${closed}ieron`, '3pl');
    fin(`${stem}í`, 'other');
    fin(`${stem}iste`, 'other');
  }
  // Imperfect, future, conditional.
  const impf = irr.impf ?? (cls === 'ar' ? `${stem}aba` : `${stem}ía`);
  fin(impf, '3sg');
  fin(`${impf}n`, '3pl');
  const fut = irr.fut ?? inf;
  fin(`${fut}á`, '3sg');
  fin(`${fut}án`, '3pl');
  fin(`${fut}ía`, '3sg');
  fin(`${fut}ían`, '3pl');
  // Present subjunctive (the imperative of usted: "pregúntele", "dígale").
  const sBase = p1s.endsWith('o') ? p1s.slice(0, -1) : stem;
  const subj = irr.subj ?? (cls === 'ar' ? `${beforeE(sBase)}e` : `${sBase}a`);
  fin(subj, '3sg');
  fin(`${subj}n`, '3pl');
  out.push([subj, 'imperative', undefined]);
  // Non-finite forms and the imperative of tú.
  out.push([inf, 'infinitive', undefined]);
  const ger = irr.ger ?? (cls === 'ar' ? `${stem}ando` : ch === 'uy' || ch === 'y' ? `${stem}yendo` : `${closed}iendo`);
  out.push([ger, 'gerund', undefined]);
  const part = irr.part ?? (cls === 'ar' ? `${stem}ado` : `${stem}${/[aeo]$/u.test(stem) ? 'í' : 'i'}do`);
  out.push([part, 'participle', undefined]);
  out.push([irr.impTu ?? p3s, 'imperative', undefined]);
  return out;
}

interface Lexicon {
  /** Written form (lower case, accents kept) → its readings. */
  forms: Map<string, VerbForm[]>;
  /** Infinitives, gerunds and imperatives without accents, for clitics attached to them. */
  hosts: Map<string, VerbForm[]>;
}

let lexicon: Lexicon | undefined;

function build(): Lexicon {
  const forms = new Map<string, VerbForm[]>();
  const hosts = new Map<string, VerbForm[]>();
  const add = (map: Map<string, VerbForm[]>, key: string, f: VerbForm): void => {
    const list = map.get(key) ?? [];
    if (!list.some((x) => x.lemma === f.lemma && x.kind === f.kind && x.person === f.person)) list.push(f);
    map.set(key, list);
  };
  for (const v of VERBS) {
    for (const [form, kind, person] of conjugate(v)) {
      const f: VerbForm = { lemma: v.inf, kind, obj: !!v.obj, pron: !!v.pron, transitive: !v.intr && !v.pron, ...(person ? { person } : {}) };
      if (!(kind === 'finite' && person === '3sg' && NOT_NULL_SUBJECT.has(form))) add(forms, form, f);
      else add(forms, form, { ...f, person: 'other' });
      if (kind === 'infinitive' || kind === 'gerund' || kind === 'imperative') add(hosts, stripAccents(form), f);
    }
  }
  return { forms, hosts };
}

/** The readings of a written word as a verb of the lexicon (none when it is not one). */
export function verbForms(word: string): readonly VerbForm[] {
  lexicon ??= build();
  return lexicon.forms.get(word.toLowerCase()) ?? [];
}

/** A clitic attached to a verb ("preguntarle", "criticándolo", "decírselo", "pregúntale"): the verb and its clitics, else null. */
export function encliticHost(word: string): { host: VerbForm; clitics: string[] } | null {
  lexicon ??= build();
  const w = stripAccents(word.toLowerCase());
  for (const last of ['les', 'le', 'los', 'las', 'lo', 'la']) {
    if (!w.endsWith(last)) continue;
    const base = w.slice(0, -last.length);
    const tries: [string, string[]][] = [[base, [last]]];
    for (const first of ['se', 'me', 'te', 'nos']) if (base.endsWith(first)) tries.push([base.slice(0, -first.length), [first, last]]);
    for (const [hostWord, clitics] of tries) {
      // A bare host of two letters is too short to trust.
      const host = hostWord.length >= 3 ? (lexicon.hosts.get(hostWord) ?? [])[0] : undefined;
      if (host) return { host, clitics };
    }
  }
  return null;
}

/** Third-person preterites of events, not of a person's acts: "¿Qué pasó?", "¿Cuánto costó?". */
const EVENT_VERBS = new Set(['pasó', 'ocurrió', 'sucedió', 'cambió', 'costó', 'duró', 'funcionó', 'significó', 'quedó', 'faltó', 'gustó', 'pareció', 'resultó', 'bastó', 'importó', 'tocó', 'acabó', 'terminó', 'salió', 'llegó', 'cayó', 'subió', 'bajó', 'creció', 'surgió', 'apareció']);

/**
 * A finite form of a verb the lexicon lacks, by its ending: a third-person preterite ("nació",
 * "eligieron"), an imperfect, future or conditional plural ("votaban", "elegirán"), or — `weak` —
 * a present plural in -an/-en, which nouns share ("origen").
 */
export function guessedFinite(word: string): { person: '3sg' | '3pl'; weak: boolean } | null {
  const w = word.toLowerCase();
  if (verbForms(w).length || w.length < 4) return null;
  if (/[^aeiouáéíóú]ó$|ió$/u.test(w)) return EVENT_VERBS.has(w) ? null : { person: '3sg', weak: false };
  if (/(?:aron|ieron|aban|ían|arán|erán|irán|arían|erían|irían)$/u.test(w)) return { person: '3pl', weak: false };
  if (/[^aeiou](?:an|en)$/u.test(w)) return { person: '3pl', weak: true };
  return null;
}

/** Forms of "haber", "ir", "estar" and modal verbs that carry a person before a verb form ("ha dicho", "va a decir", "está diciendo", "quiere preguntarle"). */
const AUX = new Map<string, { person: '3sg' | '3pl' | 'other'; next: FormKind; link?: string }>([
  ...(['ha', 'había', 'habrá', 'habría', 'hubo'] as const).map((w) => [w, { person: '3sg' as const, next: 'participle' as const }] as const),
  ...(['han', 'habían', 'habrán', 'habrían', 'hubieron'] as const).map((w) => [w, { person: '3pl' as const, next: 'participle' as const }] as const),
  ...(['va', 'iba', 'irá'] as const).map((w) => [w, { person: '3sg' as const, next: 'infinitive' as const, link: 'a' }] as const),
  ...(['van', 'iban', 'irán'] as const).map((w) => [w, { person: '3pl' as const, next: 'infinitive' as const, link: 'a' }] as const),
  ...(['está', 'estaba', 'estuvo', 'sigue', 'siguió', 'seguía'] as const).map((w) => [w, { person: '3sg' as const, next: 'gerund' as const }] as const),
  ...(['están', 'estaban', 'estuvieron', 'siguen', 'siguieron'] as const).map((w) => [w, { person: '3pl' as const, next: 'gerund' as const }] as const),
  ...(['puede', 'podía', 'pudo', 'podría', 'podrá', 'quiere', 'quería', 'quiso', 'suele', 'solía', 'debe', 'debía', 'debería', 'intentó', 'intenta', 'decidió', 'prefiere', 'prefirió', 'necesita', 'pretende'] as const).map((w) => [w, { person: '3sg' as const, next: 'infinitive' as const }] as const),
  ...(['pueden', 'podían', 'pudieron', 'podrían', 'quieren', 'querían', 'quisieron', 'suelen', 'deben', 'deberían', 'intentaron', 'decidieron', 'necesitan'] as const).map((w) => [w, { person: '3pl' as const, next: 'infinitive' as const }] as const),
  ...(['vuelve', 'volvió', 'empieza', 'empezó', 'comienza', 'comenzó', 'llegó', 'llega'] as const).map((w) => [w, { person: '3sg' as const, next: 'infinitive' as const, link: 'a' }] as const),
  ...(['acaba', 'acabó', 'terminó', 'deja', 'dejó'] as const).map((w) => [w, { person: '3sg' as const, next: 'infinitive' as const, link: 'de' }] as const),
  ...(['tiene', 'tenía', 'tuvo'] as const).map((w) => [w, { person: '3sg' as const, next: 'infinitive' as const, link: 'que' }] as const),
]);

/** A verb phrase starting at words[i]: an auxiliary with its verb ("ha dicho", "va a decir") or one finite verb; its person, lemma and last word index. */
export function verbPhraseAt(words: readonly string[], i: number): { person: '3sg' | '3pl' | 'other'; form: VerbForm; end: number } | null {
  const w = words[i]?.toLowerCase();
  if (!w) return null;
  const aux = AUX.get(w);
  if (aux) {
    let j = i + 1;
    if (aux.link && words[j]?.toLowerCase() === aux.link) j++;
    const nextWord = words[j];
    const next = nextWord ? verbForms(nextWord).find((f) => f.kind === aux.next) ?? (aux.next !== 'participle' ? encliticHost(nextWord)?.host : undefined) : undefined;
    // "quiere decir" is "means", no person's act.
    if (next && w.startsWith('quier') && next.lemma === 'decir') return null;
    if (next) return { person: aux.person, form: next, end: j };
  }
  const finite = verbForms(w).filter((f) => f.kind === 'finite');
  if (!finite.length) return null;
  const f = finite.find((x) => x.person === '3sg') ?? finite.find((x) => x.person === '3pl') ?? finite[0]!;
  return { person: f.person ?? 'other', form: f, end: i };
}

export { stripAccents };
