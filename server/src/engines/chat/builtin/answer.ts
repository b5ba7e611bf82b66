/**
 * Composes an extractive answer: the most relevant sentences, list items and table rows of the
 * best passages, quoted as written, each passage headed by its title and a citation number. When
 * nothing relevant was found it says so, in the answer's language, rather than guessing.
 */
import type { Citation } from '../../types.ts';
import type { Hit, LanguageIndex, Query } from './search.ts';
import type { ChatLanguage } from './tokenize.ts';
import type { Unit } from './markdown.ts';

interface Phrases {
  intro: string;
  /** When the passages come from another language's docs (usually English). */
  introOther: string;
  notFound: string;
  empty: string;
  greeting: string;
}

/** The assistant's own sentences, in every language of the site. */
export const PHRASES: Record<ChatLanguage, Phrases> = {
  en: {
    intro: "Here's what the Atelier documentation says:",
    introOther: "I couldn't find this in the documentation in your language; here's what the English documentation says:",
    notFound:
      "I couldn't find anything about that in the Atelier documentation, so I'd rather not guess. I'm a simple search over the product's own docs, not a language model: ask me about credits, creating images, videos or music, API keys, the API, webhooks or self-hosting. The full documentation is at /docs.",
    empty: 'Ask me a question about Atelier, for example: "How do I create an API key?"',
    greeting:
      "Hello! I'm Atelier's built-in docs assistant. I answer from the product's documentation and cite my sources (I'm a search over the docs, not a language model). Ask me, for example: \"How do I create an API key?\"",
  },
  zh: {
    intro: 'Atelier 文档中是这样说明的：',
    introOther: '在您的语言版本文档中没有找到相关内容，以下摘自英文文档：',
    notFound:
      '我在 Atelier 文档中没有找到与此相关的内容，所以不想随意猜测。我只是对产品文档的简单检索，并不是语言模型：您可以问我关于积分、生成图片、视频或音乐、API 密钥、API、Webhook 或自托管的问题。完整文档见 /zh/docs。',
    empty: '请问我一个关于 Atelier 的问题，例如：“如何创建 API 密钥？”',
    greeting: '您好！我是 Atelier 内置的文档助手，根据产品文档回答问题并注明出处（我是对文档的检索，不是语言模型）。例如可以问：“如何创建 API 密钥？”',
  },
  ru: {
    intro: 'Вот что говорится в документации Atelier:',
    introOther: 'В документации на вашем языке ответа не нашлось; вот что говорится в английской документации:',
    notFound:
      'В документации Atelier я ничего об этом не нашёл, поэтому гадать не буду. Я простой поиск по документации продукта, а не языковая модель: спросите меня о кредитах, создании изображений, видео или музыки, API-ключах, API, вебхуках или самостоятельном размещении. Вся документация — на /ru/docs.',
    empty: 'Задайте вопрос об Atelier, например: «Как создать API-ключ?»',
    greeting:
      'Здравствуйте! Я встроенный помощник по документации Atelier: отвечаю по документации продукта и указываю источники (это поиск по документации, а не языковая модель). Спросите, например: «Как создать API-ключ?»',
  },
  de: {
    intro: 'Das steht in der Atelier-Dokumentation:',
    introOther: 'In der Dokumentation in Ihrer Sprache habe ich dazu nichts gefunden; das steht in der englischen Dokumentation:',
    notFound:
      'Dazu habe ich in der Atelier-Dokumentation nichts gefunden, und raten möchte ich nicht. Ich bin eine einfache Suche in der Dokumentation des Produkts, kein Sprachmodell: Fragen Sie mich zu Credits, Bildern, Videos oder Musik, API-Schlüsseln, der API, Webhooks oder Self-Hosting. Die ganze Dokumentation finden Sie unter /de/docs.',
    empty: 'Stellen Sie mir eine Frage zu Atelier, zum Beispiel: „Wie erstelle ich einen API-Schlüssel?“',
    greeting:
      'Hallo! Ich bin der eingebaute Dokumentations-Assistent von Atelier: Ich antworte aus der Dokumentation des Produkts und nenne meine Quellen (eine Suche in der Dokumentation, kein Sprachmodell). Fragen Sie zum Beispiel: „Wie erstelle ich einen API-Schlüssel?“',
  },
  fr: {
    intro: 'Voici ce que dit la documentation d’Atelier :',
    introOther: 'Je n’ai rien trouvé à ce sujet dans la documentation dans votre langue ; voici ce que dit la documentation en anglais :',
    notFound:
      'Je n’ai rien trouvé à ce sujet dans la documentation d’Atelier, et je préfère ne pas deviner. Je suis une simple recherche dans la documentation du produit, pas un modèle de langage : posez-moi des questions sur les crédits, la création d’images, de vidéos ou de musique, les clés d’API, l’API, les webhooks ou l’auto-hébergement. Toute la documentation est sur /fr/docs.',
    empty: 'Posez-moi une question sur Atelier, par exemple : « Comment créer une clé d’API ? »',
    greeting:
      'Bonjour ! Je suis l’assistant de documentation intégré d’Atelier : je réponds à partir de la documentation du produit et je cite mes sources (une recherche dans la documentation, pas un modèle de langage). Demandez par exemple : « Comment créer une clé d’API ? »',
  },
  ja: {
    intro: 'Atelier のドキュメントには次のように書かれています。',
    introOther: 'お使いの言語のドキュメントには見つからなかったため、英語のドキュメントから引用します。',
    notFound:
      'Atelier のドキュメントには、それに関する情報が見つかりませんでした。推測でお答えすることは控えます。私は製品ドキュメントを検索するだけのアシスタントで、言語モデルではありません。クレジット、画像・動画・音楽の生成、API キー、API、Webhook、セルフホスティングについて質問してください。ドキュメントの全体は /ja/docs にあります。',
    empty: 'Atelier について質問してください。例：「API キーはどうやって作成しますか？」',
    greeting:
      'こんにちは！Atelier に内蔵されたドキュメントアシスタントです。製品ドキュメントをもとに出典付きでお答えします（ドキュメントの検索であり、言語モデルではありません）。例えば「API キーはどうやって作成しますか？」と聞いてみてください。',
  },
  ko: {
    intro: 'Atelier 문서에는 다음과 같이 나와 있습니다.',
    introOther: '사용하시는 언어의 문서에서는 찾지 못해 영어 문서의 내용을 보여 드립니다.',
    notFound:
      'Atelier 문서에서 이에 관한 내용을 찾지 못했습니다. 추측으로 답하지는 않겠습니다. 저는 제품 문서를 검색하는 간단한 도우미이며 언어 모델이 아닙니다. 크레딧, 이미지·동영상·음악 생성, API 키, API, 웹훅, 셀프 호스팅에 대해 물어보세요. 전체 문서는 /ko/docs 에 있습니다.',
    empty: 'Atelier에 대해 질문해 주세요. 예: "API 키는 어떻게 만드나요?"',
    greeting:
      '안녕하세요! Atelier에 내장된 문서 도우미입니다. 제품 문서를 바탕으로 출처와 함께 답변합니다(문서 검색이며 언어 모델이 아닙니다). 예를 들어 "API 키는 어떻게 만드나요?"라고 물어보세요.',
  },
  es: {
    intro: 'Esto es lo que dice la documentación de Atelier:',
    introOther: 'No encontré esto en la documentación en tu idioma; esto es lo que dice la documentación en inglés:',
    notFound:
      'No encontré nada sobre eso en la documentación de Atelier, así que prefiero no adivinar. Soy una búsqueda sencilla en la documentación del producto, no un modelo de lenguaje: pregúntame sobre créditos, cómo crear imágenes, vídeos o música, claves de API, la API, webhooks o el autoalojamiento. Toda la documentación está en /es/docs.',
    empty: 'Hazme una pregunta sobre Atelier, por ejemplo: «¿Cómo creo una clave de API?»',
    greeting:
      '¡Hola! Soy el asistente de documentación integrado de Atelier: respondo a partir de la documentación del producto y cito mis fuentes (una búsqueda en la documentación, no un modelo de lenguaje). Pregúntame, por ejemplo: «¿Cómo creo una clave de API?»',
  },
  pt: {
    intro: 'Veja o que diz a documentação do Atelier:',
    introOther: 'Não encontrei isso na documentação no seu idioma; veja o que diz a documentação em inglês:',
    notFound:
      'Não encontrei nada sobre isso na documentação do Atelier, então prefiro não adivinhar. Sou uma busca simples na documentação do produto, não um modelo de linguagem: pergunte sobre créditos, criação de imagens, vídeos ou música, chaves de API, a API, webhooks ou auto-hospedagem. A documentação completa está em /pt/docs.',
    empty: 'Faça uma pergunta sobre o Atelier, por exemplo: "Como crio uma chave de API?"',
    greeting:
      'Olá! Sou o assistente de documentação integrado do Atelier: respondo com base na documentação do produto e cito as fontes (uma busca na documentação, não um modelo de linguagem). Pergunte, por exemplo: "Como crio uma chave de API?"',
  },
  tr: {
    intro: 'Atelier belgelerinde bu konuda şunlar yazıyor:',
    introOther: 'Bunu sizin dilinizdeki belgelerde bulamadım; İngilizce belgelerde şunlar yazıyor:',
    notFound:
      'Atelier belgelerinde bununla ilgili bir şey bulamadım, bu yüzden tahmin yürütmek istemiyorum. Ben bir dil modeli değil, ürünün kendi belgelerinde basit bir aramayım: bana krediler, görsel, video veya müzik oluşturma, API anahtarları, API, webhook\'lar ya da kendi sunucunuzda barındırma hakkında soru sorun. Belgelerin tamamı /tr/docs adresinde.',
    empty: 'Bana Atelier hakkında bir soru sorun, örneğin: "API anahtarı nasıl oluştururum?"',
    greeting:
      'Merhaba! Ben Atelier\'in yerleşik belge asistanıyım: ürünün belgelerine dayanarak yanıt verir ve kaynaklarımı belirtirim (belgelerde bir arama, dil modeli değil). Örneğin şunu sorun: "API anahtarı nasıl oluştururum?"',
  },
};

const GREETING = /^\s*(?:hi|hello|hey|hallo|guten tag|bonjour|salut|hola|buenas|olá|ola|oi|merhaba|selam|привет|здравствуйте|こんにちは|こんばんは|你好|您好|안녕하세요|안녕)\s*[!.?,。！？、~]*\s*$/iu;

export function isGreeting(text: string): boolean {
  return GREETING.test(text.normalize('NFKC'));
}

/** "How do I…" questions get whole step lists. */
const PROCEDURAL = /\b(?:how|steps?|wie|comment|cómo|como|nasıl|как)\b|どう|方法|手順|如何|怎么|怎样|步骤|어떻게|방법/iu;

export interface ComposedAnswer {
  text: string;
  citations: Citation[];
  found: boolean;
}

/** The least share of the question a passage must contain to count as an answer. */
export function coverageThreshold(termCount: number): number {
  return termCount <= 1 ? 0.99 : termCount === 2 ? 0.6 : termCount === 3 ? 0.7 : 0.6;
}

function unitScore(index: LanguageIndex, unit: Unit, query: Query): number {
  const terms = index.termsOf(unit);
  let s = 0;
  for (const [t, w] of query) if (terms.has(t)) s += index.weight(t) * w;
  return s;
}

/** A sentence ending in a colon introduces a code block or list; alone it makes no sense. */
function introducesSomethingElse(units: Unit[], i: number, chosen: Set<number>): boolean {
  const u = units[i]!;
  if (u.kind !== 'sentence' || !/[:：]$/.test(u.text)) return false;
  const next = units[i + 1];
  if (next?.kind === 'item') return false;
  return !(next && chosen.has(i + 1) && next.block !== u.block);
}

function selectUnits(index: LanguageIndex, hit: Hit, query: Query, procedural: boolean, budget: number): Unit[] {
  const units = hit.passage.units;
  if (units.length === 0) return [];
  const scores = units.map((u) => unitScore(index, u, query));
  const chosen = new Set<number>();
  // A numbered procedure is quoted whole when the question asks how, or when it matches.
  const blocks = new Map<number, number[]>();
  units.forEach((u, i) => {
    if (u.kind === 'item' && u.ordinal !== undefined) blocks.set(u.block, [...(blocks.get(u.block) ?? []), i]);
  });
  let bestBlock: number[] | null = null;
  let bestBlockScore = -1;
  for (const idxs of blocks.values()) {
    const s = idxs.reduce((a, i) => a + scores[i]!, 0);
    if (s > bestBlockScore) {
      bestBlockScore = s;
      bestBlock = idxs;
    }
  }
  let words = 0;
  const size = (u: Unit) => Math.max(1, u.text.split(/\s+/).length, Math.ceil(u.text.length / 6));
  if (bestBlock && (procedural || bestBlockScore > 0)) {
    for (const i of bestBlock.slice(0, 8)) {
      chosen.add(i);
      words += size(units[i]!);
    }
    // The sentence that introduces the list, if there is one right before it.
    const before = bestBlock[0]! - 1;
    if (before >= 0 && units[before]!.kind === 'sentence') chosen.add(before);
  }
  const ranked = units
    .map((u, i) => ({ u, i, s: scores[i]! + (i === 0 ? 0.01 : 0) }))
    .filter((x) => x.s > 0.01 && !chosen.has(x.i) && !x.u.header && (x.u.kind !== 'row' || x.s > 0.5) && !introducesSomethingElse(units, x.i, chosen))
    .sort((a, b) => b.s - a.s || a.i - b.i);
  for (const { u, i } of ranked) {
    if (chosen.size >= 6 || words >= budget) break;
    chosen.add(i);
    words += size(u);
  }
  if (chosen.size === 0) {
    // The passage matched on its heading: its opening is the best summary.
    for (let i = 0; i < units.length && chosen.size < 2; i++) if (units[i]!.kind !== 'row') chosen.add(i);
  }
  // Short lists are quoted whole, with the sentence that introduces them.
  for (const i of [...chosen]) {
    const u = units[i]!;
    const listBlock = u.kind === 'item' ? u.block : /[:：]$/.test(u.text) && units[i + 1]?.kind === 'item' ? units[i + 1]!.block : -1;
    if (listBlock < 0) continue;
    const members = units.map((v, k) => (v.kind === 'item' && v.block === listBlock ? k : -1)).filter((k) => k >= 0);
    if (members.length > 6) continue;
    for (const k of members) chosen.add(k);
    const intro = members[0]! - 1;
    if (intro >= 0 && units[intro]!.kind === 'sentence' && /[:：]$/.test(units[intro]!.text)) chosen.add(intro);
  }
  return [...chosen].sort((a, b) => a - b).map((i) => units[i]!);
}

function renderUnits(units: Unit[]): string {
  const lines: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) lines.push(paragraph.join(' '));
    paragraph = [];
  };
  for (const u of units) {
    if (u.kind === 'sentence') paragraph.push(u.markdown);
    else {
      flush();
      lines.push(u.kind === 'row' ? `- ${u.markdown}` : u.markdown);
    }
  }
  flush();
  return lines.join('\n');
}

/**
 * Builds the answer from search hits. `answerLang` is the language to speak in; the index may be
 * another language's when the fallback was used.
 */
export function composeAnswer(question: string, hits: Hit[], index: LanguageIndex, query: Query, answerLang: ChatLanguage, termCount: number): ComposedAnswer {
  const phrases = PHRASES[answerLang];
  const threshold = coverageThreshold(termCount);
  const relevant = hits.filter((h) => h.coverage >= threshold);
  if (relevant.length === 0) return { text: phrases.notFound, citations: [], found: false };
  const top = relevant[0]!;
  const chosen: Hit[] = [top];
  const perDoc = new Map<string, number>([[`${top.passage.section}/${top.passage.slug}`, 1]]);
  for (const h of relevant.slice(1)) {
    if (chosen.length >= 3) break;
    if (h.score < top.score * 0.6) break;
    const doc = `${h.passage.section}/${h.passage.slug}`;
    if ((perDoc.get(doc) ?? 0) >= 2) continue;
    perDoc.set(doc, (perDoc.get(doc) ?? 0) + 1);
    chosen.push(h);
  }
  const procedural = PROCEDURAL.test(question.normalize('NFKC'));
  const parts: string[] = [index.lang === answerLang ? phrases.intro : phrases.introOther];
  const citations: Citation[] = [];
  chosen.forEach((hit, i) => {
    const units = selectUnits(index, hit, query, procedural && i === 0, i === 0 ? 90 : 45);
    if (units.length === 0) return;
    citations.push({ url: hit.passage.url, title: hit.passage.title });
    parts.push(`**${hit.passage.title}** [${citations.length}]\n${renderUnits(units)}`);
  });
  if (citations.length === 0) return { text: phrases.notFound, citations: [], found: false };
  return { text: parts.join('\n\n'), citations, found: true };
}

/**
 * Splits an answer into stream deltas: a word with the space before it, or up to four CJK
 * characters with their punctuation. Joining the deltas gives the text back exactly.
 */
export function chunkForStreaming(text: string): string[] {
  const pieces = text.match(/\s*(?:[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々]{1,4}[、。，！？：）」』]*|[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々]+)/gu) ?? [];
  const consumed = pieces.reduce((n, p) => n + p.length, 0);
  if (pieces.length === 0) return text ? [text] : [];
  // Only trailing whitespace can be left over.
  if (consumed < text.length) pieces[pieces.length - 1] += text.slice(consumed);
  return pieces;
}
