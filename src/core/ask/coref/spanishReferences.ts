/**
 * References to a person in a Spanish question:
 * - subject and prepositional pronouns él/ella (plural ellos/ellas); "el" without its accent only
 *   where no noun can follow it ("¿Qué dijo el?");
 * - clitics: le/les always; lo/la/los/las only right before a verb that takes a person as object
 *   ("¿Lo critican los comentarios?") or attached to one ("criticándolo", "preguntarle") — "la IA",
 *   "lo importante", "la pregunta" are articles; "se lo dijeron": "se" is the person. A clitic
 *   doubled by a name of the question ("le preguntaron a Ilia") is that name's;
 * - possessives su/sus/suyo…: the question's own name when it has one ("¿Qué cuenta Ilia de su
 *   dieta?"), else an earlier question's person ("¿Y qué opinan de su libro?");
 * - a definite description ("el invitado", "este señor", "la misma persona"; plural "los dos", "ambos");
 * - a null subject: a third-person singular verb of a person's act with no subject before or after
 *   it ("¿Y qué opina sobre la IA?", "¿Qué dijo después?", "¿Qué ha dicho de Ilia?"); not after an
 *   impersonal "se" ("¿Qué se dijo?"), nor with a subject ("¿Qué opina la gente?", "¿Ilia qué opina?").
 */
import { adjacent, type Reference, type Word, wordsOf } from './reference';
import { encliticHost, guessedFinite, NOUN_HOMOGRAPHS, type VerbForm, verbForms, verbPhraseAt } from './spanishVerbs';

const PREPOSITIONS = new Set(['a', 'al', 'ante', 'bajo', 'con', 'contra', 'de', 'del', 'desde', 'durante', 'en', 'entre', 'hacia', 'hasta', 'mediante', 'para', 'por', 'según', 'sin', 'sobre', 'tras', 'acerca', 'respecto']);
const DETERMINERS = new Set(['el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas', 'este', 'esta', 'estos', 'estas', 'ese', 'esa', 'esos', 'esas', 'aquel', 'aquella', 'aquellos', 'aquellas', 'mi', 'mis', 'tu', 'tus', 'nuestro', 'nuestra', 'nuestros', 'nuestras', 'cada', 'todo', 'toda', 'todos', 'todas', 'algún', 'alguna', 'algunos', 'algunas', 'ningún', 'ninguna', 'otro', 'otra', 'otros', 'otras', 'mucha', 'mucho', 'muchos', 'muchas']);
/** Words that are a subject by themselves. */
const SUBJECT_WORDS = new Set(['usted', 'ustedes', 'alguien', 'nadie', 'uno', 'una', 'yo', 'tú', 'nosotros', 'nosotras', 'vosotros', 'ellos', 'ellas', 'él', 'ella', 'todos', 'todas', 'cualquiera']);
/** Adverbs between a verb and what follows it ("¿Qué dijo después sobre…?"). */
const ADVERBS = new Set(['después', 'luego', 'entonces', 'ahora', 'antes', 'exactamente', 'realmente', 'también', 'finalmente', 'ayer', 'hoy', 'concretamente', 'exactamente', 'primero', 'además', 'todavía', 'aún', 'ya', 'no', 'sí', 'solo', 'sólo', 'más', 'nunca', 'siempre', 'mucho', 'tanto', 'así', 'bien', 'mal', 'claramente', 'públicamente', 'abiertamente']);
/** Nouns of time: "el otro día", "la semana pasada" after a verb are adverbials, not subjects. */
const TIME_NOUNS = new Set(['día', 'días', 'semana', 'semanas', 'vez', 'veces', 'año', 'años', 'mes', 'meses', 'momento', 'final', 'principio', 'inicio', 'comienzo', 'minuto', 'minutos', 'hora', 'horas', 'tarde', 'noche', 'mañana', 'rato', 'otro', 'otra', 'primera', 'primer', 'última', 'último', 'segunda', 'segundo', 'resto']);
/** Words that may stand before a clitic and its verb ("¿Por qué lo critican?", "¿No la invitaron?"). */
const BEFORE_CLITIC = new Set(['qué', 'que', 'quién', 'quiénes', 'cómo', 'cuándo', 'dónde', 'cuánto', 'no', 'ya', 'se', 'nunca', 'también', 'todavía', 'aún', 'jamás', 'siempre', 'tampoco', 'alguien', 'nadie', 'cuál', 'cuáles']);
/** Clause starts: a clitic or a null subject may follow. */
const CLAUSE_START = new Set(['y', 'e', 'pero', 'entonces', 'o', 'u', 'pues', 'bueno', 'vale', 'oye', 'ahora', 'luego', 'además']);
/** Interrogatives and clitics skipped when looking for a subject before a verb. */
const SKIP_BEFORE_VERB = new Set(['qué', 'que', 'cómo', 'cuándo', 'dónde', 'adónde', 'cuánto', 'cuánta', 'cuántos', 'cuántas', 'cuál', 'cuáles', 'lo', 'la', 'los', 'las', 'le', 'les', 'se', 'me', 'te', 'nos', 'no', 'ya', 'también', 'nunca', 'siempre', 'todavía', 'aún', 'tampoco', 'realmente', 'exactamente', 'finalmente', 'luego', 'después', 'antes', 'entonces', 'más']);
/** Finite forms of ser/haber and other verbs that end a clause before a relative ("¿Qué es lo que dijo?"). */
const BOUNDARY_VERBS = new Set(['es', 'fue', 'era', 'son', 'eran', 'fueron', 'hay', 'había', 'será', 'sería']);
const DEFINITE = /(?<![\p{L}])(?:(?:el|la|del|al|este|esta|ese|esa|aquel|aquella|dicho|dicha)\s+(?:mism[oa]\s+)?(?:invitad[oa]|entrevistad[oa]|ponente|orador|oradora|conferenciante|protagonista)|(?:este|esta|ese|esa|aquel|aquella|dicho|dicha|el mismo|la misma|del mismo|al mismo)\s+(?:señor|señora|hombre|mujer|persona|tipo|chico|chica|youtuber|creador|creadora|autor|autora|expert[oa]|profesor|profesora|hablante|personaje))(?![\p{L}])/giu;
const DEFINITE_PLURAL = /(?<![\p{L}])(?:los dos|las dos|ambos|ambas|los invitados|las invitadas|estos dos|estas dos)(?![\p{L}])/giu;

const esJoin = (names: readonly string[]): string => (names.length <= 2 ? names.join(' y ') : `${names.slice(0, -1).join(', ')} y ${names[names.length - 1]!}`);

/** Masculine nouns in -ma/-a of Greek origin and a few others. */
const MASCULINE_A = /(?:problema|tema|programa|sistema|esquema|dilema|drama|idioma|clima|poema|lema|dogma|enigma|síntoma|diploma|trauma|panorama|teorema|día|mapa|planeta|sofá)s?$/u;

/** The gender of a Spanish noun or adjective by its ending (-a, -ción, -dad… feminine). */
function feminine(word: string): boolean {
  const w = word.toLowerCase();
  if (MASCULINE_A.test(w)) return false;
  return /(?:a|ción|sión|ciones|siones|dad|dades|tad|tades|tud|tudes|umbre|umbres|ie|ies)s?$/u.test(w);
}

/** What follows an "a" or "de" before a name a clitic is doubled by: an own mention starting there. */
function doubledBy(question: string, words: readonly Word[], after: number, own: readonly [number, number][]): boolean {
  for (let j = after; j < Math.min(words.length, after + 6); j++) {
    if (words[j]!.lower === 'a' && own.some(([s]) => s >= words[j]!.end && adjacent(question, words[j]!.end, s))) return true;
  }
  return false;
}

/** The references of a Spanish question, in order. `own` are the ranges of the entities it names itself. */
export function spanishReferences(question: string, own: readonly [number, number][] = []): Reference[] {
  const out: Reference[] = [];
  const words = wordsOf(question);
  const taken = (r: [number, number]): boolean => out.some((x) => x.range[0] < r[1] && r[0] < x.range[1]);
  const capitalisedMid = (i: number): boolean => /^\p{Lu}/u.test(words[i]!.text) && !/^[\s¿¡"“(]*$/u.test(question.slice(0, words[i]!.start)) && !/[.!?¿¡]\s*$/u.test(question.slice(0, words[i]!.start));
  /** Inserts " a NAMES" after word `k` (a clitic doubled: "¿Qué le preguntaron a Ilia?"), or after the subject that follows it. */
  const after = (k: number, prefix: string) => (names: readonly string[]) => {
    let at = words[Math.min(k, words.length - 1)]!.end;
    // After the subject the question names right after the verb: "¿Qué le respondió Jordi a Ilia?".
    const subject = own.find(([s]) => s >= at && adjacent(question, at, s));
    if (subject) at = subject[1];
    return { range: [at, at] as [number, number], text: ` ${prefix}${esJoin(names)}` };
  };

  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const range: [number, number] = [w.start, w.end];
    const prev = words[i - 1];
    const next = words[i + 1];
    const named = (names: readonly string[]) => ({ range, text: esJoin(names) });

    // él, ella, ellos, ellas; "el" where no noun follows it.
    if (w.lower === 'él' || w.lower === 'ella') {
      if (w.text === 'Ella' && capitalisedMid(i)) continue;
      out.push({ range, number: 'singular', role: 'personal', form: 'pronoun', rewrite: named });
      continue;
    }
    if (w.lower === 'ellos' || w.lower === 'ellas') {
      out.push({ range, number: 'plural', role: 'personal', form: 'pronoun', rewrite: named });
      continue;
    }
    if (w.lower === 'el' && (!next || /^\s*[?.!,;:)]/u.test(question.slice(w.end)) || ['sobre', 'acerca', 'respecto'].includes(next.lower))) {
      out.push({ range, number: 'singular', role: 'personal', form: 'pronoun', rewrite: named });
      continue;
    }

    // le, les: always a person (not "Le Monde").
    if ((w.lower === 'le' || w.lower === 'les') && !capitalisedMid(i)) {
      const vp = next ? verbPhraseAt(words.map((x) => x.text), i + 1) : null;
      const end = vp ? vp.end : i;
      if (doubledBy(question, words, end + 1, own)) continue;
      out.push({ range, number: w.lower === 'les' ? 'plural' : 'singular', role: 'personal', form: 'clitic', rewrite: after(end, 'a ') });
      continue;
    }

    // se + lo/la/los/las + verb: "se" is le ("¿Se lo dijeron?").
    if (w.lower === 'se' && next && ['lo', 'la', 'los', 'las'].includes(next.lower) && verbPhraseAt(words.map((x) => x.text), i + 2)) {
      const vp = verbPhraseAt(words.map((x) => x.text), i + 2)!;
      if (!doubledBy(question, words, vp.end + 1, own)) out.push({ range, number: 'singular', role: 'personal', form: 'clitic', rewrite: after(vp.end, 'a ') });
      i++;
      continue;
    }

    // lo, la, los, las right before a verb that takes a person.
    if (['lo', 'la', 'los', 'las'].includes(w.lower) && next) {
      if (prev && ['me', 'te', 'nos', 'se'].includes(prev.lower)) continue;
      let vp = verbPhraseAt(words.map((x) => x.text), i + 1);
      // A verb the lexicon lacks ("¿Por qué lo eligieron?"): only after an interrogative or a negation, where no article stands.
      if (!vp && guessedFinite(next.text) && prev && BEFORE_CLITIC.has(prev.lower) && adjacent(question, w.end, next.start)) vp = { person: guessedFinite(next.text)!.person, form: GUESSED, end: i + 1 };
      if (!vp || !vp.form.obj) continue;
      if (articleBefore(question, words, i + 1, own)) continue;
      if (doubledBy(question, words, vp.end + 1, own)) continue;
      const plural = w.lower === 'los' || w.lower === 'las';
      out.push({ range, number: plural ? 'plural' : 'singular', role: 'personal', form: 'clitic', rewrite: after(vp.end, 'a ') });
      continue;
    }

    // A clitic attached to an infinitive, a gerund or an imperative.
    const enc = w.lower.length > 4 ? encliticHost(w.text) : null;
    if (enc) {
      const person = enc.clitics.find((c) => c === 'le' || c === 'les' || c === 'se') ?? (enc.host.obj ? enc.clitics.find((c) => /^l[oa]s?$/u.test(c)) : undefined);
      if (person && !(person === 'se' && enc.clitics.length === 1) && !doubledBy(question, words, i + 1, own)) {
        out.push({ range, number: person === 'les' || person === 'los' || person === 'las' ? 'plural' : 'singular', role: 'personal', form: 'clitic', rewrite: after(i, 'a ') });
      }
      continue;
    }

    // su, sus, suyo…: "su libro" → "el libro de Ilia".
    if (/^(?:su|sus)$/u.test(w.lower) && next) {
      const plural = w.lower === 'sus';
      // A prenominal adjective ("su nuevo libro") agrees with the noun; the name goes after the noun.
      const nounIdx = next && ['nuevo', 'nueva', 'nuevos', 'nuevas', 'último', 'última', 'últimos', 'últimas', 'primer', 'primera', 'propio', 'propia', 'propios', 'propias', 'gran', 'mejor', 'peor', 'antiguo', 'antigua'].includes(next.lower) && words[i + 2] ? i + 2 : i + 1;
      const noun = words[nounIdx]!;
      const fem = feminine(next.lower);
      const article = plural ? (fem ? 'las' : 'los') : fem ? 'la' : 'el';
      const deBefore = prev && (prev.lower === 'de' || prev.lower === 'a') && adjacent(question, prev.end, w.start) && article === 'el';
      out.push({
        range,
        number: 'singular',
        role: 'possessive',
        form: 'possessive',
        rewrite: (names) => {
          const start = deBefore ? prev.start : w.start;
          const lead = deBefore ? (prev.lower === 'de' ? 'del' : 'al') : article;
          const between = question.slice(w.end, noun.end);
          return { range: [start, noun.end], text: `${prev && deBefore && /^\p{Lu}/u.test(prev.text) ? lead[0]!.toUpperCase() + lead.slice(1) : lead}${between} de ${esJoin(names)}` };
        },
      });
      continue;
    }
    if (/^(?:suyo|suya|suyos|suyas)$/u.test(w.lower)) {
      out.push({ range, number: 'singular', role: 'possessive', form: 'possessive', rewrite: (names) => ({ range, text: `de ${esJoin(names)}` }) });
      continue;
    }
  }

  // Definite descriptions.
  for (const [re, number] of [[DEFINITE, 'singular'], [DEFINITE_PLURAL, 'plural']] as const) {
    for (const m of question.matchAll(re)) {
      const range: [number, number] = [m.index, m.index + m[0].length];
      if (taken(range)) continue;
      const lead = /^del\s/iu.test(m[0]) ? 'de ' : /^al\s/iu.test(m[0]) ? 'a ' : '';
      out.push({ range, number, role: 'personal', form: 'definite', rewrite: (names) => ({ range, text: `${lead}${esJoin(names)}` }) });
    }
  }

  // Null subjects: a third-person singular verb of a person's act, with no subject.
  const texts = words.map((x) => x.text);
  for (let i = 0; i < words.length; i++) {
    const guess = guessedFinite(texts[i]!);
    const vp = verbPhraseAt(texts, i) ?? (guess?.person === '3sg' && words[i - 1]?.lower !== 'se' ? { person: '3sg' as const, form: GUESSED, end: i } : null);
    if (!vp || vp.person !== '3sg') continue;
    const w = words[i]!;
    // A capitalised verb in mid-question is a name ("Cuenta" is no verb in "Ana Cuenta").
    if (capitalisedMid(i)) continue;
    const prev = words[i - 1];
    // "¿Qué se dijo?": impersonal; "¿Por qué se mudó?": the person's own "se".
    if (articleBefore(question, words, i, own)) continue;
    if (prev?.lower === 'se' && !vp.form.pron) {
      i = vp.end;
      continue;
    }
    if (/^(?:tiene|tenía|tuvo)$/u.test(w.lower) && words[i + 1]?.lower === 'que' && words[i + 2]?.lower === 'ver') continue;
    if (hasSubjectBefore(question, words, i) || hasSubjectAfter(question, words, vp.end, own, !vp.form.transitive || objectAskedBefore(words, i))) {
      i = vp.end;
      continue;
    }
    const range: [number, number] = [w.start, words[vp.end]!.end];
    if (!taken(range)) out.push({ range, number: 'singular', role: 'personal', form: 'null-subject', rewrite: after(vp.end, '') });
    i = vp.end;
  }
  return out.sort((a, b) => a.range[0] - b.range[0]);
}

/** A verb the lexicon lacks, recognised by its ending: a person's act that may take a person as object. */
const GUESSED: VerbForm = { lemma: '', kind: 'finite', obj: true, pron: false, transitive: true };

/** A subject before the verb at `i`: a name or a noun phrase not inside a prepositional phrase ("¿La gente qué opina?", "¿Ilia qué dijo?"). */
function hasSubjectBefore(question: string, words: readonly Word[], i: number): boolean {
  let j = i - 1;
  while (j >= 0 && SKIP_BEFORE_VERB.has(words[j]!.lower)) {
    // "por qué", "para qué": an interrogative, not a phrase.
    if ((words[j]!.lower === 'qué' || words[j]!.lower === 'que') && ['por', 'para', 'de', 'sobre', 'con', 'en', 'a'].includes(words[j - 1]?.lower ?? '')) j--;
    j--;
  }
  if (j < 0) return false;
  const w = words[j]!;
  // A sentence boundary between them.
  if (/[.!?;]/u.test(question.slice(w.end, words[i]!.start))) return false;
  if (CLAUSE_START.has(w.lower) || BOUNDARY_VERBS.has(w.lower) || PREPOSITIONS.has(w.lower)) return false;
  if (w.lower === 'quién' || w.lower === 'quiénes') return !PREPOSITIONS.has(words[j - 1]?.lower ?? '');
  if (SUBJECT_WORDS.has(w.lower)) return true;
  if (verbForms(w.text).some((f) => f.kind === 'finite') && !articleBefore(question, words, j, [])) return false;
  // A noun or a name: a subject unless a preposition starts its phrase.
  for (let k = j; k >= Math.max(0, j - 4); k--) {
    const x = words[k]!;
    // "¿Cuántos años tiene?", "¿Qué empresa fundó?": the asked phrase is the object.
    if (PREPOSITIONS.has(x.lower) || ['qué', 'cuántos', 'cuántas', 'cuánto', 'cuánta', 'cuál', 'cuáles'].includes(x.lower)) return false;
    if (CLAUSE_START.has(x.lower) || BOUNDARY_VERBS.has(x.lower)) return true;
    if (k < j && /[,;¿¡]/u.test(question.slice(x.end, words[k + 1]!.start))) return true;
  }
  return true;
}

const UNAMBIGUOUS_DETERMINERS = new Set([...DETERMINERS, 'su', 'sus'].filter((d) => !['la', 'lo', 'los', 'las'].includes(d)));

/**
 * True when the word at `i` (a verb form) is a noun after its article: "el/una/su pregunta"; "la
 * pregunta" after a preposition or a verb ("con la pregunta", "fue la pregunta"), or a noun-like
 * form ("la entrevista") with no interrogative or negation before its "la" ("¿Quién la entrevista?").
 */
function articleBefore(question: string, words: readonly Word[], i: number, own: readonly [number, number][]): boolean {
  const prev = words[i - 1];
  if (!prev || !adjacent(question, prev.end, words[i]!.start)) return false;
  if (UNAMBIGUOUS_DETERMINERS.has(prev.lower)) return true;
  if (!['la', 'lo', 'los', 'las'].includes(prev.lower)) return false;
  const p2 = words[i - 2];
  const punct = !p2 || /[¿¡,;]/u.test(question.slice(p2.end, prev.start));
  const cue = !!p2 && !punct && (BEFORE_CLITIC.has(p2.lower) || own.some(([s, e]) => p2.start >= s && p2.start < e));
  if (NOUN_HOMOGRAPHS.has(words[i]!.lower)) return !cue;
  if (punct || cue || CLAUSE_START.has(p2.lower)) return false;
  return PREPOSITIONS.has(p2.lower) || DETERMINERS.has(p2.lower) || BOUNDARY_VERBS.has(p2.lower) || verbForms(p2.text).some((f) => f.kind === 'finite');
}

/** The verb's object is asked for right before it: "¿Qué dice…?", "¿Cuál prefiere…?" (not "¿De qué…?", "¿Por qué…?"). */
function objectAskedBefore(words: readonly Word[], i: number): boolean {
  let j = i - 1;
  while (j >= 0 && ['lo', 'la', 'los', 'las', 'le', 'les', 'se', 'me', 'te', 'nos', 'no', 'ya', 'más'].includes(words[j]!.lower)) j--;
  const w = words[j];
  if (!w || !['qué', 'que', 'cuál', 'cuáles', 'cuánto', 'cuánta', 'cuántos', 'cuántas'].includes(w.lower)) return false;
  return !PREPOSITIONS.has(words[j - 1]?.lower ?? '');
}

/**
 * A subject after the verb phrase ending at word `end`: a name, a pronoun, or a noun phrase that is
 * no time adverbial when nothing else can be the verb's object ("¿Qué dice el vídeo?", "¿Cómo empezó
 * el episodio?"; but "¿Cómo justificó el precio?": the price is what he justified).
 *
 * @param npIsSubject the verb takes no object, or its object is asked for before it
 */
function hasSubjectAfter(question: string, words: readonly Word[], end: number, own: readonly [number, number][], npIsSubject: boolean): boolean {
  let j = end + 1;
  while (j < words.length && ADVERBS.has(words[j]!.lower) && adjacent(question, words[j - 1]!.end, words[j]!.start)) j++;
  const w = words[j];
  if (!w || /[?.!;]/u.test(question.slice(words[j - 1]!.end, w.start))) return false;
  if (own.some(([s, e]) => w.start >= s && w.start < e)) return true;
  if (SUBJECT_WORDS.has(w.lower)) return true;
  if (DETERMINERS.has(w.lower)) {
    // "el moderador" where the question names a role: the person, so the subject.
    const h1 = words[j + 1];
    if (h1 && own.some(([s, e]) => h1.start >= s && h1.start < e)) return true;
    const head = [words[j + 1]?.lower, words[j + 2]?.lower];
    return npIsSubject && !head.some((h) => h && TIME_NOUNS.has(h)) && !['pasado', 'pasada'].includes(head[1] ?? '');
  }
  // A name the question does not link ("¿Qué dijo Zorblat?"); not a word after "a" (an object).
  return /^\p{Lu}/u.test(w.text);
}
