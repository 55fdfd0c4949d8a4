/*
 * Words a language's glossary (locales/glossary/<code>.md) chose against. A translation written in
 * several sessions drifts back to them ("книжка" beside "книга", "читалка" for the reader screen,
 * "läsframsteg" beside "läsförlopp"), and a reader meeting two words takes them for two things.
 * locales/check.ts reports each text that uses one. Word starts only, so an inflected form is
 * caught and a longer word that merely contains the letters is not.
 */
/** A word's start, not inside another word (JavaScript's \b knows ASCII letters only). */
const wordStart = (stem: string) => new RegExp(`(?<!\\p{L})${stem}`, 'iu');

export interface AvoidedTerm {
  pattern: RegExp;
  /** The glossary's word, named in the report. */
  use: string;
}

export const AVOIDED_TERMS: Readonly<Record<string, readonly AvoidedTerm[]>> = {
  ru: [{ pattern: wordStart('читалк'), use: 'режим чтения' }],
  uk: [
    { pattern: wordStart('читалк'), use: 'режим читання' },
    // Its forms: книжка, книжки, книжок, книжці.
    { pattern: wordStart('книж(?:к|ок|ц)'), use: 'книга' },
  ],
  sv: [{ pattern: wordStart('läsframsteg'), use: 'läsförlopp' }],
  de: [
    // The reading screen; "KOReader" (a name) is not a word start.
    { pattern: wordStart('reader'), use: 'Leseansicht' },
    { pattern: wordStart('fingerabdr'), use: 'Hash' },
    { pattern: wordStart('sprach(?:-tag|kürzel)'), use: 'Sprachcode' },
  ],
  es: [
    { pattern: wordStart('huellas?'), use: 'hash' },
    { pattern: wordStart('configuraci'), use: 'ajustes' },
    { pattern: wordStart('etiquetas? de idioma'), use: 'código de idioma' },
  ],
  // Japanese has no spaces between words, so these match anywhere in a text.
  ja: [
    { pattern: /フィンガープリント/u, use: 'ハッシュ' },
    { pattern: /言語タグ/u, use: '言語コード' },
    { pattern: /サインイン/u, use: 'ログイン' },
    { pattern: /全巻数/u, use: '本の総数' },
    { pattern: /[:()?!]/u, use: 'the full-width ：（）？！' },
  ],
  'zh-Hans': [
    { pattern: /您/u, use: '你' },
    { pattern: /指纹/u, use: '哈希' },
    { pattern: /语言标记/u, use: '语言代码' },
    { pattern: /书籍/u, use: '图书' },
    { pattern: /[:()?!,;]/u, use: 'the full-width ：（）？！，；' },
  ],
  'zh-Hant': [
    { pattern: /您/u, use: '你' },
    { pattern: /指紋/u, use: '雜湊' },
    { pattern: /語言標記/u, use: '語言代碼' },
    // Sharing a library: 共用 in most texts, 共享 and 分享 crept into three.
    { pattern: /共享|分享/u, use: '共用' },
    { pattern: /[:()?!,;]/u, use: 'the full-width ：（）？！，；' },
  ],
  ko: [
    { pattern: wordStart('지문'), use: '해시' },
    { pattern: wordStart('언어 태그'), use: '언어 코드' },
    { pattern: wordStart('라이브러리'), use: '서재' },
  ],
  nl: [
    { pattern: wordStart('vingerafdr'), use: 'hash' },
    // Logging in is inloggen in the login screen and menus; aanmelden beside it reads as a second act.
    { pattern: wordStart('aanmeld'), use: 'inloggen, inlog-' },
    { pattern: /"/u, use: '‘…’' },
  ],
  tr: [
    { pattern: wordStart('üst veri'), use: 'meta veri' },
    { pattern: wordStart('kitaplı'), use: 'kütüphane' },
    { pattern: wordStart('oturum aç'), use: 'giriş' },
    { pattern: wordStart('dil etiket'), use: 'dil kodu' },
  ],
  'pt-BR': [
    { pattern: wordStart('impress(?:ão|ões) digita'), use: 'hash' },
    { pattern: wordStart('etiquetas? de idioma'), use: 'código de idioma' },
    { pattern: wordStart('busca'), use: 'pesquisar, pesquisa' },
    { pattern: wordStart('suportad'), use: 'compatível' },
    { pattern: /"/u, use: '“…”' },
  ],
  pt: [
    { pattern: wordStart('impress(?:ão|ões) digita'), use: 'hash' },
    { pattern: wordStart('etiquetas? de idioma'), use: 'código de idioma' },
    { pattern: wordStart('tente mais tarde'), use: 'tente novamente mais tarde' },
    { pattern: /"/u, use: '«…»' },
  ],
  it: [
    // "libreria" is a bookshop or a bookcase.
    { pattern: wordStart('librer'), use: 'biblioteca' },
    { pattern: wordStart('impront'), use: 'hash' },
    { pattern: wordStart('avanzament'), use: 'progressi' },
    { pattern: wordStart('tag di lingua'), use: 'codice di lingua' },
    { pattern: /"/u, use: '«…»' },
  ],
  ca: [
    { pattern: wordStart('emprem'), use: 'hash' },
    { pattern: wordStart('etiquet(?:a|es) d.idioma'), use: "codi d'idioma" },
    // The product's name takes no article: "de Folio", as in every other text.
    { pattern: /\bdel Folio\b/u, use: 'de Folio' },
  ],
  gl: [
    { pattern: wordStart('pegadas?'), use: 'hash' },
    { pattern: wordStart('etiquet(?:a|as) de idioma'), use: 'código de idioma' },
    { pattern: wordStart('amos'), use: 'mostrar' },
    { pattern: wordStart('téntao máis tarde'), use: 'téntao de novo máis tarde' },
  ],
  da: [
    { pattern: wordStart('fingeraftryk'), use: 'hash' },
    { pattern: wordStart('sprogmærke'), use: 'sprogkode' },
    { pattern: wordStart('(?:dublet|dobbelte sider)'), use: 'dublerede sider' },
    { pattern: /"/u, use: '“…”' },
  ],
  nb: [
    // The glossary keeps the feminine forms (boka, bokas); "boken" had crept into 21 texts.
    { pattern: wordStart('bokens?(?!\\p{L})'), use: 'boka, bokas' },
    { pattern: wordStart('fingeravtrykk'), use: 'hash' },
    { pattern: wordStart('pålogging'), use: 'innlogging' },
    { pattern: wordStart('doble sider'), use: 'duplikatsider' },
  ],
  fi: [
    { pattern: wordStart('kielitunnist'), use: 'kielikoodi' },
    // The reading screen; "lukija" reads as a person.
    { pattern: wordStart('lukija'), use: 'lukunäkymä' },
    { pattern: wordStart('lukutilan(?:ne|te)'), use: 'lukuedistyminen' },
    { pattern: wordStart('(?:täsmän|osum)'), use: 'vastata, vastaavuus (duplicate pages)' },
  ],
  hu: [
    { pattern: wordStart('szerver'), use: 'kiszolgáló' },
    { pattern: wordStart('ujjlenyomat'), use: 'hash' },
    { pattern: wordStart('nyelvcímk'), use: 'nyelvkód' },
    // The reader is addressed with Ön; these are the informal forms that crept in.
    { pattern: wordStart('(?:veled|kérj )'), use: 'Önnel, kérjen' },
  ],
  ro: [
    // Not the {{folder}} placeholder.
    { pattern: /(?<![\p{L}{])folder/iu, use: 'dosar' },
    { pattern: wordStart('amprent'), use: 'hash' },
    { pattern: wordStart('etichet(?:ă|a|e) de limbă'), use: 'cod de limbă' },
    // The glossary addresses the reader with tu; these are the dumneavoastră forms that crept in.
    { pattern: /\p{L}(?:ați|eți|iți)-[io](?!\p{L})|(?<!\p{L})(?:re)?încercați/iu, use: 'the tu form (copiaz-o, reîncearcă)' },
  ],
  el: [
    { pattern: wordStart('αποτυπώμ'), use: 'τιμή κατακερματισμού' },
    { pattern: wordStart('αποτύπωμ'), use: 'τιμή κατακερματισμού' },
    { pattern: wordStart('ετικέτα γλώσσας'), use: 'κωδικός γλώσσας' },
    // The reading screen; "αναγνώστης" reads as a person.
    { pattern: wordStart('αναγνώστ'), use: 'προβολή ανάγνωσης' },
    { pattern: wordStart('κοινοποι'), use: 'μοιράζομαι μαζί σας' },
  ],
  bg: [
    { pattern: wordStart('отпечат'), use: 'хеш' },
    { pattern: wordStart('езиков етикет'), use: 'езиков код' },
    { pattern: wordStart('профил'), use: 'акаунт' },
    { pattern: wordStart('API ключ'), use: 'ключ за API' },
  ],
  hr: [
    // "Sažetak" is the book summary; a hash is "hash".
    { pattern: wordStart('sažet(?:ak|ka|ke|ci|aka)\\s+(?:datotek|stranic|poznat|nepoznat|za)'), use: 'hash' },
    { pattern: wordStart('sažec'), use: 'hash' },
    { pattern: wordStart('oznak[ae] jezika'), use: 'kod jezika' },
    { pattern: wordStart('serija(?!l)'), use: 'serijal' },
  ],
  id: [
    { pattern: wordStart('sidik jari'), use: 'hash' },
    { pattern: wordStart('tag bahasa'), use: 'kode bahasa' },
    { pattern: wordStart('galat'), use: 'kesalahan' },
    // "Bantalan" is a cushion: padding is "margin samping".
    { pattern: wordStart('bantalan'), use: 'margin samping' },
    { pattern: /"/u, use: '“…”' },
  ],
  vi: [
    { pattern: wordStart('dấu vân tay'), use: 'mã băm' },
    { pattern: wordStart('thẻ ngôn ngữ'), use: 'mã ngôn ngữ' },
  ],
  // Thai has no spaces between words, so these match anywhere in a text.
  th: [
    { pattern: /ลายนิ้วมือ/u, use: 'แฮช' },
    { pattern: /แท็กภาษา/u, use: 'รหัสภาษา' },
    { pattern: /เมทาดาทา/u, use: 'ข้อมูลเมตา' },
  ],
  he: [
    { pattern: wordStart('טביע(?:ת|ות) אצבע'), use: 'גיבוב' },
    { pattern: wordStart('תג שפה'), use: 'קוד שפה' },
    // The glossary writes it with a maqaf (U+05BE), not a hyphen-minus.
    { pattern: /מטא-נתונים/u, use: 'מטא־נתונים' },
  ],
  ar: [
    { pattern: wordStart('وسم لغة'), use: 'رمز لغة' },
    // Written with its shadda everywhere else.
    { pattern: /(?<!\p{L})سلة/u, use: 'سلّة' },
  ],
  fa: [
    { pattern: wordStart('پرونده'), use: 'فایل' },
    { pattern: wordStart('اثر انگشت'), use: 'درهم‌ساز' },
    { pattern: wordStart('برچسب زبان'), use: 'کد زبان' },
    // بارگیری is downloading; loading a page again is بارگذاری.
    { pattern: wordStart('دوباره بارگیری'), use: 'دوباره بارگذاری' },
    { pattern: wordStart('به اشتراک'), use: 'هم‌رسانی' },
  ],
  ta: [
    { pattern: wordStart('கைரேகை'), use: 'ஹாஷ்' },
    { pattern: wordStart('சாவி'), use: 'விசை' },
    { pattern: wordStart('அடைவ'), use: 'கோப்புறை' },
    { pattern: wordStart('ஏற்கெனவே'), use: 'ஏற்கனவே' },
    { pattern: wordStart('மொழிக் குறி(?!யீ)'), use: 'மொழிக் குறியீடு' },
  ],
  eo: [
    { pattern: wordStart('metadaten'), use: 'metadatumoj' },
    { pattern: wordStart('lingva etikedo'), use: 'lingva kodo' },
  ],
  fr: [
    { pattern: wordStart('réglage'), use: 'paramètres' },
    { pattern: wordStart('étiquettes? de langue'), use: 'code de langue' },
    { pattern: wordStart('chercher'), use: 'rechercher' },
    { pattern: /’/u, use: "' (the file's apostrophe)" },
    // French sets a no-break space before : ; ? ! and inside « » (U+00A0, U+202F before ; ? !), so the
    // sign never starts a line on its own.
    { pattern: / [:;?!»]|« /u, use: 'a no-break space there' },
  ],
};

/** `key: word` for each text that uses a word the language's glossary avoids. */
export function avoidedTerms(code: string, texts: ReadonlyMap<string, string>): string[] {
  const terms = AVOIDED_TERMS[code] ?? [];
  return [...texts].flatMap(([key, text]) =>
    terms.filter(({ pattern }) => pattern.test(text)).map(({ pattern, use }) => `${key}: "${pattern.exec(text)![0]}" where the glossary says "${use}"`),
  );
}
