/**
 * Language-aware tokenisation for retrieval. Words for alphabetic scripts (with stop words
 * dropped and a light stemmer: suffix rules for English, a prefix cut for the inflected languages),
 * character bigrams for Chinese and Japanese (Japanese split at hiragana, which mostly carries
 * grammar), and syllable bigrams for Korean words with their particles removed.
 */

export const CHAT_LANGUAGES = ['en', 'zh', 'ru', 'de', 'fr', 'ja', 'ko', 'es', 'pt', 'tr'] as const;
export type ChatLanguage = (typeof CHAT_LANGUAGES)[number];

export function isChatLanguage(value: unknown): value is ChatLanguage {
  return typeof value === 'string' && (CHAT_LANGUAGES as readonly string[]).includes(value);
}

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Function words and question words, per language. English is applied to every language too (docs mix in English terms). */
const STOP: Record<ChatLanguage, Set<string>> = {
  en: words(
    'a an the and or but if of to in on at by for from with without into onto about as is are was were be been being am do does did doing done have has had having i me my we our you your he she it its they them their this that these those there here what which who whom whose when where why how can could should would will shall may might must not no yes so than then too very just also only any some all each every more most other such own same both few again further once please tell know want need get got make s t ll ve re d m let us one way use using used work works working worked get gets getting obtain much many',
  ),
  de: words(
    'der die das den dem des ein eine einen einem einer eines und oder aber wenn wie was wer wo warum wann welche welcher welches ich du er sie es wir ihr mein meine dein deine ist sind war waren sein bin bist hat haben habe hast kann können muss müssen soll sollte wird werden nicht kein keine mit ohne für von zu im in am an auf aus bei nach über unter um als auch nur noch so da dass man sich mir mich dir dich uns euch bitte gibt funktioniert funktionieren bekommen erhalten machen mache nutzen verwenden benutzen geht',
  ),
  fr: words(
    'le la les l un une des du de d et ou mais si comment que qu quoi qui où quand pourquoi quel quelle quels quelles je j tu il elle nous vous ils elles me m te t se s mon ma mes ton ta tes son sa ses est sont être ai as a avons avez ont peux peut pouvez puis dois doit ne n pas plus avec sans pour par dans en sur au aux ce cet cette ces c y on faire fait il-y-a fonctionne fonctionnent fonctionner marche obtenir avoir utiliser',
  ),
  es: words(
    'el la los las lo un una unos unas y o pero si como cómo que qué quien quién donde dónde cuando cuándo por porque cuál cual yo tu tú él ella nosotros vosotros ellos ellas me te se mi mis su sus es son ser estar está están he ha han hay puedo puede pueden debo debe no más con sin para en de del al este esta estos estas ese esa eso hacer hago funciona funcionan funcionar obtener conseguir usar tengo tener',
  ),
  pt: words(
    'o a os as um uma uns umas e ou mas se como que quem onde quando porque por qual quais eu tu ele ela nós vós eles elas me te se meu minha meus minhas seu sua seus suas é são ser estar está estão tenho tem têm há posso pode podem devo deve não mais com sem para em de do da dos das no na nos nas ao aos este esta isso isto fazer faço funciona funcionam funcionar obter conseguir usar tenho ter',
  ),
  ru: words(
    'и или но а если как что кто где когда почему какой какая какое какие я ты он она оно мы вы они меня мне мой моя моё мои ваш ваша ваше ваши его её их это этот эта эти тот та то те есть быть был была были может могу можно нужно надо не нет да с со без для в во на по из к ко у о об от до за при же ли бы мне чтобы сделать работает работают работать получить использовать',
  ),
  tr: words(
    've veya ama eğer nasıl ne kim nerede neden niçin hangi ben sen o biz siz onlar benim senin onun bizim sizin bu şu bir mi mı mu mü mıdır midir için ile gibi da de ki çok daha en var yok değil olarak olan nasil yapabilirim yapılır çalışır çalışıyor almak yapmak kullanmak nasıl',
  ),
  ja: words('何 方法 どう どの 私 あなた'),
  zh: words('如何 怎么 怎样 什么 为什 为何 哪里 哪个 可以 能否 请问 我的 你的 是否 一个 这个 那个 如果 需要 应该 我们 你们 他们'),
  ko: words('어떻게 무엇 뭐 방법 하나요 있나요 되나요 합니다 해요 하는 있는 어떤 어디 언제 저는 제가 나는 내가 무엇인가요 뭔가요'),
};

/** Korean particles and verb endings stripped from the end of a word before bigrams, longest first. */
const KO_SUFFIXES = [
  '하려면', '으려면', '습니까', '합니까', '하나요', '하세요', '할까요', '입니다', '합니다', '으로는', '에서는',
  '려면', '나요', '까요', '세요', '어요', '아요', '해요', '니다', '는지', '하기', '으로', '에서', '에게', '까지', '부터', '하고', '이나',
  '기', '고', '은', '는', '이', '가', '을', '를', '에', '의', '도', '로', '와', '과', '만', '요',
];

/**
 * A light Korean stemmer: one particle or ending off the end, then the final consonant of the last
 * syllable dropped, so 만들기 (making) and 만드나요 (do … make?) both become 만드.
 */
function koreanStem(word: string): string {
  for (const suffix of KO_SUFFIXES) {
    if (word.length > suffix.length && word.endsWith(suffix)) {
      word = word.slice(0, -suffix.length);
      break;
    }
  }
  if (word.length < 2) return word;
  const last = word.charCodeAt(word.length - 1) - 0xac00;
  if (last < 0 || last > 11171) return word;
  return word.slice(0, -1) + String.fromCharCode(0xac00 + last - (last % 28));
}
/** Chinese characters that are nearly always grammar; they split runs like hiragana does in Japanese. */
const ZH_BREAK = /[的了是在和与或及吗呢吧把被这那都也就要会很请我你他她它们]/u;

/** Multi-character CJK stop words as one alternation, for splitting runs of characters. */
const CJK_STOP_SPLIT: Partial<Record<ChatLanguage, RegExp>> = Object.fromEntries(
  (['zh', 'ja'] as const).map((l) => [l, new RegExp([...STOP[l]].filter((w) => w.length > 1).sort((a, b) => b.length - a.length).join('|'), 'u')]),
);

export const HAN = /\p{Script=Han}/u;
const HIRAGANA = /\p{Script=Hiragana}/u;
const HANGUL = /\p{Script=Hangul}/u;

function englishStem(w: string): string {
  if (w.length <= 3) return w;
  // Porter's rules for -ies/-ied/-y, so retries, retried and retry meet at "retri".
  if ((w.endsWith('ies') || w.endsWith('ied')) && w.length > 4) return `${w.slice(0, -3)}i`;
  if (/[^aeiouy]y$/.test(w)) return `${w.slice(0, -1)}i`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (/(?:ches|shes|xes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) {
    w = w.slice(0, -3);
    if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
    return w;
  }
  if (w.endsWith('ed') && w.length > 4) {
    w = w.slice(0, -2);
    if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
    return w;
  }
  if (w.endsWith('ation') && w.length > 7) return w.slice(0, -5);
  if (w.endsWith('ly') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('e') && w.length > 4) return w.slice(0, -1);
  return w;
}

/** Inflected alphabetic languages: the first six letters are a surprisingly good stem. */
const prefixStem = (w: string) => (w.length > 6 ? w.slice(0, 6) : w);

function stem(word: string, lang: ChatLanguage): string {
  if (/^\d/.test(word)) return word;
  if (lang === 'en' || lang === 'ja' || lang === 'zh' || lang === 'ko') return englishStem(word);
  return prefixStem(word);
}

export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Adds CJK bigrams (or the lone character) of one run. */
function pushBigrams(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0]!);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/**
 * Terms of a text for a given language. Stop words are dropped, so a question made only of
 * them has no terms.
 */
export function tokenize(text: string, lang: ChatLanguage): string[] {
  const out: string[] = [];
  const norm = normaliseText(text);
  const stop = STOP[lang];
  const stopEn = STOP.en;
  const re = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々]+|\p{Script=Hangul}+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々])[\p{L}\p{N}\p{M}])+/gu;
  for (const match of norm.matchAll(re)) {
    const token = match[0];
    const first = token[0]!;
    if (HANGUL.test(first)) {
      if (stop.has(token)) continue;
      const word = koreanStem(token);
      if (stop.has(word)) continue;
      pushBigrams(word, out);
      continue;
    }
    if (HAN.test(first) || /[\p{Script=Hiragana}\p{Script=Katakana}ー々]/u.test(first)) {
      // Split at hiragana (Japanese grammar), at Chinese function characters and at question
      // words, then bigram what is left.
      let run = '';
      const splitter = CJK_STOP_SPLIT[lang];
      const flush = () => {
        if (run) for (const piece of splitter ? run.split(splitter) : [run]) if (piece && !stop.has(piece)) pushBigrams(piece, out);
        run = '';
      };
      for (const ch of token) {
        if (HIRAGANA.test(ch) || (lang === 'zh' && ZH_BREAK.test(ch))) flush();
        else run += ch;
      }
      flush();
      continue;
    }
    if (stop.has(token) || stopEn.has(token)) continue;
    if (token.length === 1 && !/\d/.test(token)) continue;
    out.push(stem(token, lang));
  }
  return out;
}

/**
 * The language a question is written in, from its script, distinctive letters and stop words;
 * `fallback` when nothing stands out.
 */
export function detectLanguage(text: string, fallback: ChatLanguage = 'en'): ChatLanguage {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return 'ja';
  if (HANGUL.test(text)) return 'ko';
  if (HAN.test(text)) return 'zh';
  if (/\p{Script=Cyrillic}/u.test(text)) return 'ru';
  const norm = normaliseText(text);
  const tokens = norm.match(/\p{L}+/gu) ?? [];
  if (tokens.length === 0) return fallback;
  const score: Record<string, number> = { en: 0, de: 0, fr: 0, es: 0, pt: 0, tr: 0 };
  for (const t of tokens) for (const l of ['en', 'de', 'fr', 'es', 'pt', 'tr'] as const) if (STOP[l].has(t)) score[l]! += 1;
  if (/[ğış]/.test(norm)) score.tr! += 3;
  if (/[ßäöü]/.test(norm)) score.de! += 2;
  if (/[ãõ]/.test(norm)) score.pt! += 2;
  if (/[ñ¿¡]/.test(norm)) score.es! += 2;
  if (/[èêàùœ]/.test(norm)) score.fr! += 2;
  if (/ç/.test(norm)) {
    score.fr! += 0.5;
    score.pt! += 0.5;
    score.tr! += 0.5;
  }
  let best: ChatLanguage = fallback;
  let bestScore = 0;
  for (const [l, s] of Object.entries(score) as [ChatLanguage, number][]) {
    if (s > bestScore) {
      best = l;
      bestScore = s;
    }
  }
  return best;
}

/**
 * A rough token count for usage reporting: words, CJK characters and punctuation marks each
 * count as one.
 */
export function approxTokens(text: string): number {
  return (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []).length;
}
