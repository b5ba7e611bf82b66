/**
 * Reads a music prompt: a small multilingual lexicon of moods, genres, instruments and tempo
 * words, plus explicit "120 bpm", "in D minor", "3/4" and "no drums". Words the lexicon does not
 * know still count: each is hashed into small, deterministic nudges of tempo, energy, key and
 * melody, so two different prompts never sound the same.
 */
import { hash32 } from './dsp.ts';

export const STYLES = [
  'piano',
  'ambient',
  'lofi',
  'jazz',
  'electronic',
  'orchestral',
  'classical',
  'rock',
  'folk',
  'chiptune',
  'pop',
  'hiphop',
] as const;
export type StyleId = (typeof STYLES)[number];

export const MODES = ['major', 'minor', 'dorian', 'mixolydian', 'lydian', 'phrygian', 'harmonicMinor'] as const;
export type Mode = (typeof MODES)[number];

/** Instruments a prompt can ask for by name. */
export type InstrumentHint =
  | 'piano'
  | 'epiano'
  | 'guitar'
  | 'eguitar'
  | 'strings'
  | 'violin'
  | 'cello'
  | 'synth'
  | 'flute'
  | 'bells'
  | 'organ'
  | 'brass'
  | 'choir'
  | 'sax'
  | 'vibes'
  | 'harp'
  | 'marimba'
  | 'bass808'
  | 'pad';

export type Texture = 'rain' | 'vinyl' | 'ocean';

interface Effect {
  /** Energy nudge, roughly -0.4..0.4 (0 is calm, 1 is frantic). */
  e?: number;
  /** Valence nudge: negative is sad/dark, positive happy/bright. */
  v?: number;
  style?: Partial<Record<StyleId, number>>;
  inst?: InstrumentHint;
  mode?: Mode;
  /** Reverb / spaciousness nudge. */
  space?: number;
  /** Timbre brightness nudge. */
  bright?: number;
  texture?: Texture;
  drums?: boolean;
  /** Multiplies the tempo. */
  tempo?: number;
}

/**
 * Keys: a plain Latin key matches a whole word; a trailing `*` matches a word prefix; a key with
 * a space matches a phrase; keys in CJK or Hangul match anywhere (those scripts do not separate
 * words with spaces). Accents are stripped from Latin text before matching.
 */
const LEXICON: [keys: string[], effect: Effect][] = [
  // Energy and tempo.
  [['calm*', 'peace*', 'tranquil*', 'serene*', 'gentle', 'soft*', 'quiet*', 'relax*', 'sooth*', 'mellow', 'ruhig*', 'sanft*', 'entspann*', 'calme*', 'doux', 'douce*', 'paisib*', 'tranquilo*', 'suave*', 'relajant*', 'tranquila', 'calmo', 'calma', 'спокойн*', 'тих*', 'нежн*', 'sakin*', 'huzur*', '穏やか', '静か', 'やさしい', '優しい', '癒し', '平静', '安静', '宁静', '轻柔', '放松', '舒缓', '잔잔', '차분', '편안', '조용'], { e: -0.3, tempo: 0.92 }],
  [['sleep*', 'lullab*', 'meditat*', 'yoga', 'spa', 'schlaf*', 'sommeil', 'dormir', 'сон', 'сна', 'колыбел*', 'uyku', '睡眠', '子守', '瞑想', '冥想', '摇篮', '수면', '명상', '자장가'], { e: -0.4, tempo: 0.85, space: 0.3, style: { ambient: 1.2 } }],
  [['slow*', 'langsam*', 'lent*', 'lento', 'lenta', 'медлен*', 'yavas*', 'ゆっくり', 'スロー', '缓慢', '慢', '느린', '느리게'], { e: -0.2, tempo: 0.82 }],
  [['fast', 'faster', 'quick*', 'rapid*', 'schnell*', 'rapide*', 'rapido', 'rapida', 'быстр*', 'hizli', '速い', 'アップテンポ', '快速', '快节奏', '빠른', '빠르게'], { e: 0.25, tempo: 1.15 }],
  [['energ*', 'upbeat', 'driving', 'powerful', 'intense*', 'hype*', 'pump*', 'exciting', 'excited', 'dynamic*', 'lively', 'aggressive', 'energi*', 'энерг*', 'enerji*', 'エネルギッシュ', '元気', '激しい', '活力', '动感', '激烈', '有活力', '신나는', '에너지', '강렬'], { e: 0.35, tempo: 1.08 }],
  [['dance*', 'danc*', 'party', 'club*', 'workout', 'gym', 'running', 'tanz*', 'danse*', 'baile', 'bailar', 'dança', 'танц*', 'dans*', 'ダンス', 'パーティー', '舞曲', '派对', '跳舞', '댄스', '파티'], { e: 0.3, style: { electronic: 1 } }],
  [['chill*', 'laid back', 'laidback', 'lazy', 'cozy', 'cosy', 'gemutlich*', 'チル', '悠闲', '慵懒'], { e: -0.2, style: { lofi: 0.6 } }],
  // Mood.
  [['happy', 'joy*', 'cheer*', 'bright', 'sunny', 'uplift*', 'playful', 'fun', 'funny', 'positive', 'hopeful', 'optimis*', 'glucklich*', 'frohlich*', 'heureu*', 'joyeu*', 'feliz', 'alegre', 'весел*', 'радост*', 'счастлив*', 'mutlu*', 'nese*', '楽しい', '明るい', '幸せ', '快乐', '欢快', '开心', '明亮', '행복', '밝은', '즐거운', '경쾌'], { v: 0.5, e: 0.08, bright: 0.2, style: { pop: 0.3, folk: 0.2 } }],
  [['sad*', 'melanchol*', 'melancol*', 'sorrow*', 'grief', 'griev*', 'lonely', 'heartbreak*', 'tragic*', 'tears', 'cry*', 'nostalg*', 'traurig*', 'triste*', 'melancoli*', 'грустн*', 'печал*', 'тоск*', 'uzgun*', 'huzunlu*', '悲しい', '切ない', '寂しい', '哀愁', '悲伤', '忧伤', '伤感', '难过', '슬픈', '우울', '쓸쓸'], { v: -0.6, e: -0.12, tempo: 0.92, style: { piano: 0.4 } }],
  [['dark*', 'gloom*', 'ominous', 'sinister', 'brooding', 'dunkel*', 'sombre', 'sombr*', 'oscur*', 'escur*', 'тёмн*', 'темн*', 'mrachn*', 'karanlik*', '暗い', 'ダーク', '黑暗', '阴暗', '어두운', '다크'], { v: -0.5, bright: -0.3, mode: 'phrygian' }],
  [['horror', 'scary', 'creepy', 'eerie', 'haunt*', 'spooky', 'halloween', 'gruselig*', 'effrayant*', 'terror', 'ужас*', 'korku*', 'ホラー', '恐怖', '诡异', '공포'], { v: -0.7, e: -0.1, mode: 'phrygian', space: 0.3, style: { ambient: 1 } }],
  [['mysterious', 'mystery', 'mystic*', 'enigmat*', 'geheimnis*', 'myster*', 'misterio*', 'таинств*', 'загадоч*', 'gizemli*', '神秘', 'ミステリアス', '미스터리', '신비'], { v: -0.15, mode: 'dorian', space: 0.2 }],
  [['dream*', 'ethereal', 'floating', 'magical', 'magic', 'fairy*', 'wonder*', 'whimsical', 'traum*', 'reve*', 'onirique', 'sueno*', 'sonho*', 'мечта*', 'сказоч*', 'ruya*', '夢', '幻想', 'ファンタジー', '梦幻', '梦', '몽환', '꿈'], { v: 0.2, mode: 'lydian', space: 0.35, bright: 0.1, style: { ambient: 0.5 } }],
  [['romantic*', 'love', 'tender*', 'wedding', 'romant*', 'amour', 'amor', 'любов*', 'романт*', 'romantik', 'ロマンチック', '恋', '愛', '浪漫', '爱', '로맨틱', '사랑'], { v: 0.2, e: -0.1, style: { piano: 0.4 } }],
  [['epic*', 'heroic', 'triumph*', 'majestic', 'battle', 'war', 'adventure*', 'grand*', 'episch*', 'epique*', 'epico', 'épico', 'эпич*', 'героич*', 'destansi', 'epik', '壮大', 'エピック', '勇壮', '史诗', '宏大', '壮丽', '웅장', '에픽', '장엄'], { e: 0.3, space: 0.25, style: { orchestral: 1.6 } }],
  [['tense', 'tension', 'suspense*', 'thrill*', 'chase', 'angespannt*', 'напряж*', '緊張', '紧张', '긴장'], { e: 0.2, v: -0.4, mode: 'harmonicMinor' }],
  [['angry', 'rage', 'furious', 'wut*', 'colere', 'ira', 'злой', '怒り', '愤怒', '분노'], { e: 0.35, v: -0.4, style: { rock: 0.8 } }],
  [['christmas', 'xmas', 'holiday*', 'winter', 'snow*', 'weihnacht*', 'noel', 'navidad', 'natal', 'рождеств*', 'новогод*', 'noel', 'yilbasi', 'クリスマス', '圣诞', '크리스마스'], { v: 0.4, inst: 'bells', bright: 0.2 }],
  [['celtic', 'irish', 'medieval', 'tavern', 'fantasy', 'kelt*', 'celtique', 'celta', 'кельт*', 'ケルト', '凯尔特', '켈트'], { mode: 'dorian', style: { folk: 1.3 }, inst: 'flute' }],
  [['oriental', 'arabian', 'desert', 'egypt*', 'persian', 'spanish', 'flamenco'], { mode: 'harmonicMinor', v: -0.1 }],
  // Places and nature (mostly space and texture).
  [['space', 'cosmic', 'galax*', 'stars', 'starry', 'nebula', 'universe', 'weltraum', 'espace', 'espacio', 'космос*', 'uzay', '宇宙', '星空', '太空', '우주'], { space: 0.5, e: -0.1, style: { ambient: 0.9 }, mode: 'lydian' }],
  [['rain*', 'rainy', 'storm*', 'regen*', 'pluie', 'lluvia', 'chuva', 'дожд*', 'yagmur*', '雨', '비오는', '빗소리'], { texture: 'rain', e: -0.1, v: -0.1 }],
  [['ocean', 'sea', 'waves', 'beach', 'meer', 'ozean', 'mer', 'oceano', 'mar', 'море', 'океан', 'deniz', '海', '波', '바다', '파도'], { texture: 'ocean', space: 0.3, e: -0.1 }],
  [['forest', 'nature', 'morning', 'spring', 'wald', 'natur', 'foret', 'bosque', 'floresta', 'лес', 'природ*', 'orman', 'doga', '森', '自然', '朝', '森林', '早晨', '숲', '자연', '아침'], { v: 0.2, e: -0.1, style: { folk: 0.4, ambient: 0.3 } }],
  [['night*', 'midnight', 'nacht*', 'nuit', 'noche', 'noite', 'ночь', 'ночн*', 'gece', '夜', '深夜', '夜晚', '밤', '새벽'], { e: -0.1, v: -0.1, space: 0.15 }],
  [['city', 'urban', 'street', 'neon', 'cyberpunk', 'stadt', 'ville', 'ciudad', 'город*', 'sehir', '都会', '都市', '城市', '도시'], { style: { electronic: 0.6, hiphop: 0.4 } }],
  [['vinyl', 'crackle', 'tape', 'cassette', 'vinyle', 'vinilo', 'винил*', 'plak', 'レコード', '黑胶', '바이닐'], { texture: 'vinyl', style: { lofi: 0.5 } }],
  // Genres.
  [['lofi', 'lo fi', 'lo-fi', 'study', 'studying', 'homework', 'lernen', 'etude', 'estudiar', 'ローファイ', '学習', '勉強', '学习', '로파이', '공부'], { style: { lofi: 2 }, e: -0.15 }],
  [['hip hop', 'hiphop', 'hip-hop', 'rap', 'boom bap', 'trap', 'beats', 'ヒップホップ', '嘻哈', '说唱', '힙합'], { style: { hiphop: 1.8 } }],
  [['jazz*', 'swing*', 'bebop', 'bossa*', 'blues*', 'lounge', 'cocktail', 'cafe', 'coffee', 'джаз*', 'ジャズ', '爵士', '재즈', 'caz'], { style: { jazz: 2 } }],
  [['ambient', 'atmospher*', 'drone', 'soundscape', 'texture*', 'new age', 'ambiente', 'эмбиент', 'амбиент', 'атмосфер*', 'アンビエント', '环境音乐', '氛围', '앰비언트'], { style: { ambient: 2 }, e: -0.2, space: 0.3 }],
  [['electronic', 'electro*', 'edm', 'techno', 'house', 'trance', 'synthwave', 'retrowave', 'outrun', 'dubstep', 'drum and bass', 'dnb', 'rave', 'futur*', 'elektron*', 'electronique', 'electronica', 'eletronic*', 'электрон*', 'テクノ', 'エレクトロ', '电子', '电音', '일렉트로닉', '전자'], { style: { electronic: 2 }, e: 0.15 }],
  [['orchestra*', 'cinematic', 'film', 'movie', 'soundtrack', 'score', 'trailer', 'symphon*', 'orchest*', 'kino', 'cine', 'оркестр*', 'кино', 'orkestra*', 'sinematik', 'オーケストラ', '映画', 'シネマ', '管弦乐', '电影', '交响', '오케스트라', '영화', '시네마틱'], { style: { orchestral: 2 }, space: 0.2 }],
  [['classical', 'baroque', 'chamber', 'mozart', 'bach', 'chopin', 'klassisch*', 'classique', 'clasica', 'classica', 'классическ*', 'klasik', 'クラシック', '古典', '클래식'], { style: { classical: 2 } }],
  [['rock*', 'metal', 'punk', 'grunge', 'indie', 'рок', 'ロック', '摇滚', '락', '록'], { style: { rock: 2 }, e: 0.2, inst: 'eguitar' }],
  [['folk*', 'acoustic', 'country', 'campfire', 'bluegrass', 'akustik*', 'acoustique', 'acustic*', 'фолк', 'акустич*', 'フォーク', 'アコースティック', '民谣', '原声', '포크', '어쿠스틱'], { style: { folk: 2 }, inst: 'guitar' }],
  [['8 bit', '8bit', '8-bit', 'chiptune', 'chip', 'retro game', 'video game', 'arcade', 'pixel', 'nintendo', 'game', 'gaming', 'チップチューン', 'ゲーム', '游戏', '像素', '게임'], { style: { chiptune: 2 }, e: 0.15 }],
  [['pop', 'catchy', 'radio', 'ポップ', '流行', '팝'], { style: { pop: 2 }, v: 0.1 }],
  [['waltz', 'walzer', 'valse', 'vals', 'вальс', 'ワルツ', '华尔兹', '왈츠'], { style: { classical: 0.6 } }],
  [['funk*', 'disco', 'groove', 'groovy', 'фанк', 'ファンク', '放克', '펑크'], { style: { electronic: 0.8, pop: 0.8 }, e: 0.2, v: 0.2 }],
  [['corporate', 'commercial', 'advert*', 'presentation', 'explainer', 'tutorial', 'youtube', 'podcast', 'intro', 'vlog'], { style: { pop: 1 }, v: 0.3 }],
  // Instruments.
  [['piano*', 'klavier', 'flugel', 'pianoforte', 'fortepiano', 'фортепиано', 'пианино', 'рояль', 'ピアノ', '钢琴', '피아노'], { inst: 'piano', style: { piano: 1.3 } }],
  [['rhodes', 'wurlitzer', 'electric piano', 'e piano', 'epiano', 'keys'], { inst: 'epiano' }],
  [['guitar*', 'gitarre*', 'guitare*', 'guitarra*', 'violao', 'гитар*', 'gitar*', 'ギター', '吉他', '기타'], { inst: 'guitar', style: { folk: 0.4 } }],
  [['electric guitar', 'distort*', 'overdrive', 'power chord*', 'shred*'], { inst: 'eguitar', style: { rock: 1 } }],
  [['strings', 'string', 'streicher', 'cordes', 'cuerdas', 'cordas', 'струнн*', 'yayli*', 'ストリングス', '弦楽', '弦乐', '현악'], { inst: 'strings', style: { orchestral: 0.5 } }],
  [['violin*', 'fiddle', 'geige*', 'violon', 'violin', 'violino', 'скрипк*', 'keman', 'バイオリン', 'ヴァイオリン', '小提琴', '바이올린'], { inst: 'violin', style: { classical: 0.5 } }],
  [['cello*', 'violoncel*', 'виолончел*', 'チェロ', '大提琴', '첼로'], { inst: 'cello', style: { classical: 0.5 } }],
  [['synth*', 'synthesizer', 'analog*', 'シンセ', '合成器', '신스'], { inst: 'synth', style: { electronic: 0.8 } }],
  [['flute*', 'flote*', 'flauta*', 'флейт*', 'flut', 'フルート', '长笛', '笛', '플루트'], { inst: 'flute', style: { folk: 0.3, ambient: 0.2 } }],
  [['bell*', 'glocken*', 'glockenspiel', 'music box', 'musicbox', 'celesta', 'chime*', 'cloche*', 'campana*', 'sino*', 'колокол*', 'zil', 'オルゴール', 'ベル', '铃', '钟', '八音盒', '종소리', '오르골'], { inst: 'bells', bright: 0.15 }],
  [['organ', 'orgel', 'orgue', 'organo', 'orgao', 'орган', 'オルガン', '管风琴', '风琴', '오르간', 'gospel', 'church'], { inst: 'organ', style: { classical: 0.3 } }],
  [['brass', 'trumpet*', 'horn*', 'trombone*', 'blech*', 'trompet*', 'cuivre*', 'metales', 'труб*', 'ブラス', 'トランペット', '铜管', '小号', '브라스', '트럼펫'], { inst: 'brass' }],
  [['choir', 'choral', 'voices', 'vocal*', 'chor', 'choeur', 'coro', 'хор', 'koro', '合唱', 'クワイア', '콰이어', '합창'], { inst: 'choir', space: 0.2 }],
  [['sax*', 'saxophon*', 'саксофон*', 'サックス', '萨克斯', '색소폰'], { inst: 'sax', style: { jazz: 0.8 } }],
  [['vibraphone', 'vibes', 'vibraphon*', 'вибрафон', 'ビブラフォン', '颤音琴', '비브라폰'], { inst: 'vibes', style: { jazz: 0.5 } }],
  [['harp*', 'harfe', 'harpe', 'arpa', 'арф*', 'ハープ', '竖琴', '하프'], { inst: 'harp', space: 0.15, style: { ambient: 0.4, classical: 0.3 } }],
  [['marimba', 'xylophon*', 'kalimba', 'mallet*', 'マリンバ', '马林巴', '마림바'], { inst: 'marimba' }],
  [['808', 'sub bass', 'bass heavy', 'bassy', 'wobble'], { inst: 'bass808' }],
  [['pad', 'pads', 'warm pad', 'lush'], { inst: 'pad', space: 0.15 }],
  [['drum*', 'percussion', 'beat', 'schlagzeug', 'batterie', 'bateria', 'барабан*', 'davul', 'ドラム', '鼓', '드럼'], { drums: true }],
];

const STOPWORDS = new Set(
  'a an the and or with of for to in on at by from into like some very music song track piece sound sounds style tune background feel feeling vibe vibes mood type kind made using that this it is are be my me your our its something which has have but not no'.split(
    ' ',
  ),
);

export interface PromptTraits {
  /** 0 calm .. 1 frantic. */
  energy: number;
  /** -1 sad/dark .. 1 happy/bright. */
  valence: number;
  styleScores: Partial<Record<StyleId, number>>;
  /** Named instruments, in order of first mention. */
  instruments: InstrumentHint[];
  /** Explicit request for (true) or against (false) drums. */
  drums: boolean | null;
  modeHint: Mode | null;
  tempoFactor: number;
  space: number;
  brightness: number;
  textures: Texture[];
  explicit: { bpm?: number; tonic?: number; mode?: Mode; beatsPerBar?: 3 | 4 };
  /** The lexicon words that matched, for the plan's description. */
  matched: string[];
  /** Hash of the words nobody recognised; 0 when there were none. */
  unknownHash: number;
  unknownCount: number;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function normalisePrompt(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/([a-z])[\u0300-\u036f]+/g, '$1')
    .normalize('NFC');
}

const NOTE_PC: Record<string, number> = { c: 0, d: 2, e: 4, f: 5, g: 7, a: 9, b: 11 };

export function analysePrompt(prompt: string): PromptTraits {
  const text = normalisePrompt(prompt);
  const tokens = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  const joined = ` ${tokens.join(' ')} `;
  const used = new Set<number>();
  const traits: PromptTraits = {
    energy: 0.5,
    valence: 0,
    styleScores: {},
    instruments: [],
    drums: null,
    modeHint: null,
    tempoFactor: 1,
    space: 0,
    brightness: 0,
    textures: [],
    explicit: {},
    matched: [],
    unknownHash: 0,
    unknownCount: 0,
  };
  const hits: { at: number; effect: Effect; key: string }[] = [];
  for (const [keys, effect] of LEXICON) {
    let first = -1;
    let matchedKey = '';
    for (const key of keys) {
      let at = -1;
      if (CJK.test(key)) {
        at = text.indexOf(key);
        if (at >= 0) at = 1000 + at; // CJK positions come after token positions; good enough for ordering.
      } else if (key.includes(' ') || key.includes('-')) {
        const phrase = key.replace(/-/g, ' ');
        const i = joined.indexOf(` ${phrase} `);
        if (i >= 0) {
          at = joined.slice(0, i).split(' ').length - 1;
          const n = phrase.split(' ').length;
          for (let k = 0; k < n; k++) used.add(at + k);
        }
      } else {
        const prefix = key.endsWith('*');
        const stem = prefix ? key.slice(0, -1) : key;
        for (let t = 0; t < tokens.length; t++) {
          const tok = tokens[t]!;
          if (prefix ? tok.startsWith(stem) : tok === stem) {
            used.add(t);
            if (at < 0) at = t;
          }
        }
      }
      if (at >= 0 && (first < 0 || at < first)) {
        first = at;
        matchedKey = key.replace('*', '');
      }
    }
    if (first >= 0) hits.push({ at: first, effect, key: matchedKey });
  }
  hits.sort((a, b) => a.at - b.at);
  for (const { effect, key } of hits) {
    traits.matched.push(key);
    if (effect.e) traits.energy += effect.e;
    if (effect.v) traits.valence += effect.v;
    if (effect.tempo) traits.tempoFactor *= effect.tempo;
    if (effect.space) traits.space += effect.space;
    if (effect.bright) traits.brightness += effect.bright;
    if (effect.mode && !traits.modeHint) traits.modeHint = effect.mode;
    if (effect.texture && !traits.textures.includes(effect.texture)) traits.textures.push(effect.texture);
    if (effect.inst && !traits.instruments.includes(effect.inst)) traits.instruments.push(effect.inst);
    if (effect.drums !== undefined) traits.drums = effect.drums;
    for (const [s, w] of Object.entries(effect.style ?? {}) as [StyleId, number][]) traits.styleScores[s] = (traits.styleScores[s] ?? 0) + w;
  }

  // Explicit musical instructions.
  const bpm = /(\d{2,3})\s*(?:bpm|beats per minute)/.exec(text);
  if (bpm) {
    const n = Number(bpm[1]);
    if (n >= 40 && n <= 220) traits.explicit.bpm = n;
  }
  const key =
    /(?:^|[^\p{L}])([a-g])\s*(#|♯|b|♭|\s+sharp|\s+flat)?\s*(major|minor|maj|min|moll|dur|majeur|mineur|mayor|menor|dorian|lydian|mixolydian|phrygian)(?![\p{L}])/u.exec(
      text,
    );
  if (key) {
    let pc = NOTE_PC[key[1]!]!;
    const acc = (key[2] ?? '').trim();
    if (acc === '#' || acc === '♯' || acc === 'sharp') pc += 1;
    if (acc === 'b' || acc === '♭' || acc === 'flat') pc -= 1;
    traits.explicit.tonic = (pc + 12) % 12;
    const m = key[3]!;
    traits.explicit.mode = /^(minor|min|moll|mineur|menor)$/.test(m)
      ? 'minor'
      : /^(major|maj|dur|majeur|mayor)$/.test(m)
        ? 'major'
        : (m as Mode);
  }
  if (/(?:^|\s)3\/4(?:\s|$)|(?:^|\s)6\/8(?:\s|$)/.test(text) || traits.matched.some((k) => /^(waltz|walzer|valse|vals|вальс|ワルツ|华尔兹|왈츠)$/.test(k)))
    traits.explicit.beatsPerBar = 3;
  if (/\b(?:no|without|sans|ohne|sin|sem|без)\s+(?:drums?|percussion|beats?|batterie|schlagzeug|bateria|барабан\S*)|\bdrumless\b|\ba cappella\b/u.test(text))
    traits.drums = false;

  // Unknown words: each nudges things a little, deterministically.
  let h = 0;
  let count = 0;
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t]!;
    if (used.has(t) || STOPWORDS.has(tok) || /^\d+$/.test(tok) || (tok.length < 3 && !CJK.test(tok))) continue;
    h = hash32(tok, h);
    count++;
  }
  traits.unknownHash = h;
  traits.unknownCount = count;
  if (count > 0) {
    traits.energy += ((h & 0xff) / 255 - 0.5) * 0.12;
    traits.valence += (((h >>> 8) & 0xff) / 255 - 0.5) * 0.25;
    traits.tempoFactor *= 1 + (((h >>> 16) & 0xff) / 255 - 0.5) * 0.08;
  }
  traits.energy = Math.min(1, Math.max(0, traits.energy));
  traits.valence = Math.min(1, Math.max(-1, traits.valence));
  return traits;
}
