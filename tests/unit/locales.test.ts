import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compareKeys,
  flattenKeys,
  localeCodes,
  lookup,
  metaProblems,
  placeholderProblems,
  pluralCategories,
  pluralProblems,
  readLocale,
  sourceDir,
  strayBraces,
  registerProblems,
  untranslatedProblems,
} from '../../locales/check.ts';
import { glossaryProblems, requiredTerms } from '../../locales/glossary.ts';
import { unusedKeys } from '../../locales/usage.ts';

/**
 * Every translation mirrors locales/en.json exactly: whoever adds or renames a key in English adds its
 * translation to every locale file on main in the same change (HELPERS.md), so a missing key fails
 * here instead of showing English to a reader of another language.
 */

const english = readLocale('en');
const translations = localeCodes().filter((code) => code !== 'en');

describe('locale files', () => {
  it('has English plus translations, each named in its own language, no two alike', () => {
    expect(translations.length).toBeGreaterThan(0);
    const names = translations.map((code) => lookup(readLocale(code), 'common.locale_name'));
    expect(new Set(names).size).toBe(names.length);
  });

  it('uses every key of en.json somewhere in the client (locales/usage.ts)', () => {
    expect(unusedKeys(flattenKeys(english), sourceDir)).toEqual([]);
  });

  it('counts literal keys and key templates with a known section as uses, nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-usage-'));
    try {
      writeFileSync(join(dir, 'a.tsx'), "t('shelf.title'); t(`status.${s}`); t(`${k}.other`); // 'shelf.gone' in a word\n");
      const keys = ['shelf.title', 'shelf.hint', 'status.READ', 'status.deep.READ', 'books'];
      expect(unusedKeys(keys, dir)).toEqual(['shelf.hint', 'status.deep.READ', 'books']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('knows the plural categories the checks rely on', () => {
    expect(pluralCategories('ar')).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
    expect(pluralCategories('ru')).toEqual(['few', 'many', 'one', 'other']);
    expect(pluralCategories('ja')).toEqual(['other']);
  });

  it('catches unbalanced placeholder braces', () => {
    expect(strayBraces('{{count}} books')).toBe(false);
    expect(strayBraces('{{count} books')).toBe(true);
    expect(strayBraces('{ {count}} books')).toBe(true);
    expect(placeholderProblems({ a: 'Hi {{name}}' }, { a: 'Salut {{nom}}' })).toHaveLength(1);
  });

  it('catches a text copied from English, not one listed as shared or without words', () => {
    const source = { a: { b: 'Delete the book' }, n: { one: '{{count}} book', other: '{{count}} books' }, p: '{{page}} / {{total}}', common: { product_name: 'Folio' } };
    expect(untranslatedProblems('de', source, source).map((line) => line.split(':')[0])).toEqual(['a.b', 'n']);
    expect(untranslatedProblems('de', source, { ...source, a: { b: 'Das Buch löschen' }, n: { one: '{{count}} Buch', other: '{{count}} Bücher' } })).toEqual([]);
  });

  it('catches the avoided address, not the same word meaning "it"', () => {
    expect(registerProblems('de', { a: 'Löschen Sie zuerst einen', b: 'Die Datei wurde nicht gefunden: Sie wurde verschoben', c: 'Ihr Konto darf das nicht' })).toHaveLength(2);
    expect(registerProblems('de', { a: 'Lösche zuerst einen', b: 'Die Bibliothek wird entfernt. Ihre Dateien bleiben.' })).toEqual([]);
  });

  it("catches a word the glossary chose against, in any form, not a longer word that holds its letters", () => {
    expect(registerProblems('uk', { a: 'Усі книжки з бібліотеки', b: 'Вийти з читалки', c: { one: '{{count}} книга', other: '{{count}} книжок' } })).toEqual([
      'a: "книжк" where the glossary says "книга" (locales/glossary/uk.md)',
      'b: "читалк" where the glossary says "режим читання" (locales/glossary/uk.md)',
      'c[1]: "книжок" where the glossary says "книга" (locales/glossary/uk.md)',
    ]);
    expect(registerProblems('sv', { a: 'med läsframsteg och metadata', b: 'med läsförlopp' })).toHaveLength(1);
    expect(registerProblems('ru', { a: 'Перечиталка' })).toEqual([]);
    expect(registerProblems('de', { a: 'den Reader verlassen', b: 'Fingerabdrücke der Seiten', c: 'ein Sprach-Tag wie en' })).toHaveLength(3);
    expect(registerProblems('de', { a: 'KOReader-Hashes berechnen', b: 'Lesereinstellungen' })).toEqual([]);
    expect(registerProblems('es', { a: 'Huellas de las páginas', b: 'Configuración guardada.', c: 'una etiqueta de idioma' })).toHaveLength(3);
    expect(registerProblems('es', { a: 'Ajustes guardados.', b: 'Etiquetas de uso compartido' })).toEqual([]);
    expect(registerProblems('ja', { a: 'ページのフィンガープリント', b: 'ComicInfo: 本のメタデータ', c: '全巻数を変更' })).toHaveLength(3);
    expect(registerProblems('ja', { a: 'ページのハッシュ計算', b: 'ComicInfo：本のメタデータ（{{count}} 冊）' })).toEqual([]);
    expect(registerProblems('zh-Hans', { a: '这不是您当前的密码。', b: '页面指纹', c: '书库: {{names}}' })).toHaveLength(3);
    expect(registerProblems('zh-Hans', { a: '这不是你当前的密码。', b: '书库：{{names}}（{{count}} 本）' })).toEqual([]);
    expect(registerProblems('zh-Hant', { a: '這不是您目前的密碼。', b: '頁面指紋', c: '與你共享的書庫', d: '書庫: {{names}}' })).toHaveLength(4);
    expect(registerProblems('zh-Hant', { a: '這不是你目前的密碼。', b: '計算頁面雜湊', c: '書庫：{{names}}（{{count}} 本）' })).toEqual([]);
    expect(registerProblems('ko', { a: '페이지 지문', b: '언어 태그(예: ko)', c: '큰 라이브러리에서는' })).toHaveLength(3);
    expect(registerProblems('ko', { a: '페이지 해시 계산', b: '언어 코드(예: ko)', c: '큰 서재에서는' })).toEqual([]);
    expect(registerProblems('nl', { a: 'Vingerafdrukken van de pagina', b: 'Nog geen aanmeldactiviteit.', c: 'de rol "{{role}}"' })).toHaveLength(3);
    expect(registerProblems('nl', { a: 'Paginahashes berekenen', b: 'Nog geen inlogactiviteit.', c: 'de rol ‘{{role}}’' })).toEqual([]);
    expect(registerProblems('tr', { a: 'tüm kitapların üst verileri', b: 'Büyük bir kitaplıkta', c: 'çok fazla oturum açma denemesi', d: 'Dil etiketi, örneğin tr' })).toHaveLength(4);
    expect(registerProblems('tr', { a: 'tüm kitapların meta verileri', b: 'Büyük bir kütüphanede', c: 'çok fazla giriş denemesi', d: 'Dil kodu, örneğin tr' })).toEqual([]);
    expect(registerProblems('pt-BR', { a: 'Impressões digitais das páginas', b: 'Buscar uma série', c: 'a chave "{{comment}}"' })).toHaveLength(3);
    expect(registerProblems('pt-BR', { a: 'Cálculo dos hashes das páginas', b: 'a chave “{{comment}}”' })).toEqual([]);
    expect(registerProblems('pt', { a: 'Impressões digitais das páginas', b: 'uma etiqueta de idioma', c: 'a função "{{role}}"' })).toHaveLength(3);
    expect(registerProblems('pt', { a: 'Cálculo dos hashes das páginas', b: 'a função «{{role}}»' })).toEqual([]);
    expect(registerProblems('it', { a: 'Su una libreria grande', b: 'Impronte delle pagine', c: 'il ruolo "{{role}}"' })).toHaveLength(3);
    expect(registerProblems('it', { a: 'Su una biblioteca grande', b: 'il ruolo «{{role}}»' })).toEqual([]);
    expect(registerProblems('ca', { a: 'Empremtes de les pàgines', b: "Etiqueta d'idioma, per exemple ca", c: 'la carpeta de dades del Folio' })).toHaveLength(3);
    expect(registerProblems('ca', { a: 'Càlcul del hash de les pàgines', b: "Codi d'idioma, per exemple ca", c: 'la carpeta de dades de Folio' })).toEqual([]);
    expect(registerProblems('gl', { a: 'Pegadas das páxinas', b: 'Etiqueta de idioma, por exemplo gl', c: 'Amosar coincidencias', d: 'téntao máis tarde' })).toHaveLength(4);
    expect(registerProblems('gl', { a: 'Cálculo do hash das páxinas', b: 'Código de idioma, por exemplo gl', c: 'Mostrar as coincidencias', d: 'téntao de novo máis tarde' })).toEqual([]);
    expect(registerProblems('da', { a: 'Fingeraftryk af siderne', b: 'et sprogmærke som en', c: 'Denne dubletside', d: 'rollen "{{role}}"' })).toHaveLength(4);
    expect(registerProblems('da', { a: 'Beregning af sidernes hashes', b: 'en sprogkode som en', c: 'Denne dublerede side', d: 'rollen “{{role}}”' })).toEqual([]);
    expect(registerProblems('nb', { a: 'Denne boken kunne ikke analyseres', b: 'Bokens egen', c: 'Fingeravtrykk av sidene', d: 'For mange påloggingsforsøk' })).toHaveLength(4);
    expect(registerProblems('nb', { a: 'Denne boka kunne ikke analyseres', b: 'Bokas egen', c: 'Bokhandlinger', d: 'For mange innloggingsforsøk' })).toEqual([]);
    expect(registerProblems('fi', { a: 'Kielitunniste, esimerkiksi fi', b: 'poistuaksesi lukijasta', c: 'lukutilanteineen', d: 'Näytä osumat' })).toHaveLength(4);
    expect(registerProblems('fi', { a: 'Kielikoodi, esimerkiksi fi', b: 'poistuaksesi lukunäkymästä', c: 'lukuedistymisineen', d: 'Näytä vastaavuudet', e: 'Lukutila' })).toEqual([]);
    expect(registerProblems('hu', { a: 'A szerver foglalt', b: 'Oldalak ujjlenyomata', c: 'Nyelvcímke, például hu', d: 'osszon meg veled' })).toHaveLength(4);
    expect(registerProblems('hu', { a: 'A kiszolgáló foglalt', b: 'Oldal-hash-ek számítása', c: 'Nyelvkód, például hu', d: 'osszon meg Önnel' })).toEqual([]);
    expect(registerProblems('ro', { a: 'folderul de date', b: 'Amprentele paginilor', c: 'Etichetă de limbă, de exemplu ro', d: 'copiați-o cu tastatura', e: 'apoi reîncercați.' })).toHaveLength(5);
    expect(registerProblems('ro', { a: 'dosarul de sistem {{folder}}', b: 'Calcularea hash-urilor paginilor', c: 'Cod de limbă, de exemplu ro', d: 'copiaz-o cu tastatura', e: 'apoi reîncearcă.' })).toEqual([]);
    expect(registerProblems('el', { a: 'Αποτυπώματα σελίδων', b: 'Ετικέτα γλώσσας, για παράδειγμα el', c: 'για να βγείτε από τον αναγνώστη', d: 'Δεν έχει κοινοποιηθεί' })).toHaveLength(4);
    expect(registerProblems('el', { a: 'Υπολογισμός τιμών κατακερματισμού σελίδων', b: 'Κωδικός γλώσσας, για παράδειγμα el', c: 'για να κλείσει η προβολή ανάγνωσης', d: 'Δεν έχει μοιραστεί' })).toEqual([]);
    expect(registerProblems('bg', { a: 'Отпечатъци на страниците', b: 'Езиков етикет, например bg', c: 'Профилът ви няма право', d: 'Нов API ключ' })).toHaveLength(4);
    expect(registerProblems('bg', { a: 'Изчисляване на хешовете на страниците', b: 'Езиков код, например bg', c: 'Акаунтът ви няма право', d: 'Нов ключ за API' })).toEqual([]);
    expect(registerProblems('hr', { a: 'Izračunaj sažetke stranica', b: 'Sažeci stranica', c: 'Oznaka jezika, na primjer hr', d: 'Neke od odabranih serija' })).toHaveLength(4);
    expect(registerProblems('hr', { a: 'Izračunaj hasheve stranica', b: 'Sažetak', c: 'Kod jezika, na primjer hr', d: 'Neki od odabranih serijala' })).toEqual([]);
    expect(registerProblems('id', { a: 'Sidik jari halaman', b: 'Tag bahasa, misalnya id', c: 'Galat', d: 'Bantalan samping', e: 'peran "{{role}}"' })).toHaveLength(5);
    expect(registerProblems('id', { a: 'Penghitungan hash halaman', b: 'Kode bahasa, misalnya id', c: 'Kesalahan', d: 'Margin samping', e: 'peran “{{role}}”' })).toEqual([]);
    expect(registerProblems('vi', { a: 'Dấu vân tay các trang', b: 'Phải là thẻ ngôn ngữ như en' })).toHaveLength(2);
    expect(registerProblems('vi', { a: 'Tính mã băm các trang', b: 'Phải là mã ngôn ngữ như en' })).toEqual([]);
    expect(registerProblems('th', { a: 'ลายนิ้วมือของหน้า', b: 'แท็กภาษา เช่น th', c: 'รีเฟรชเมทาดาทา' })).toHaveLength(3);
    expect(registerProblems('th', { a: 'คำนวณแฮชของหน้า', b: 'รหัสภาษา เช่น th', c: 'รีเฟรชข้อมูลเมตา' })).toEqual([]);
    expect(registerProblems('he', { a: 'טביעות אצבע של העמודים', b: 'תג שפה, לדוגמה he', c: 'רענון המטא-נתונים' })).toHaveLength(3);
    expect(registerProblems('he', { a: 'חישוב גיבובי העמודים', b: 'קוד שפה, לדוגמה he', c: 'רענון המטא־נתונים' })).toEqual([]);
    expect(registerProblems('ar', { a: 'يجب أن يكون وسم لغة مثل en', b: 'حتى تُفرَّغ سلة مهملات المكتبة' })).toHaveLength(2);
    expect(registerProblems('ar', { a: 'يجب أن يكون رمز لغة مثل en', b: 'حتى تُفرَّغ سلّة مهملات المكتبة' })).toEqual([]);
    expect(registerProblems('fa', { a: 'حجم پرونده', b: 'اثر انگشت صفحه‌ها', c: 'برچسب زبان، برای نمونه fa', d: 'صفحه را دوباره بارگیری کنید', e: 'با شما به اشتراک گذاشته نشده' })).toHaveLength(5);
    expect(registerProblems('fa', { a: 'حجم فایل', b: 'محاسبهٔ درهم‌ساز صفحه‌ها', c: 'کد زبان، برای نمونه fa', d: 'صفحه را دوباره بارگذاری کنید', e: 'بارگیری این صفحه' })).toEqual([]);
    expect(registerProblems('ta', { a: 'பக்கங்களின் கைரேகைகள்', b: 'API சாவிகள்', c: 'தரவு அடைவுக்குள்', d: 'ஏற்கெனவே உள்ளது', e: 'மொழிக் குறி, எடுத்துக்காட்டாக ta' })).toHaveLength(5);
    expect(registerProblems('ta', { a: 'பக்க ஹாஷ்கள் கணக்கீடு', b: 'API விசைகள்', c: 'தரவுக் கோப்புறைக்குள்', d: 'ஏற்கனவே உள்ளது', e: 'மொழிக் குறியீடு, எடுத்துக்காட்டாக ta' })).toEqual([]);
    expect(registerProblems('eo', { a: 'kun legoprogreso kaj metadatenoj', b: 'Lingva etikedo, ekzemple eo' })).toHaveLength(2);
    expect(registerProblems('eo', { a: 'kun legoprogreso kaj metadatumoj', b: 'Lingva kodo, ekzemple eo' })).toEqual([]);
    expect(registerProblems('fr', { a: 'Réglages du lecteur', b: 'Chercher une série', c: 'Ce n’est pas' })).toHaveLength(3);
    expect(registerProblems('fr', { a: 'Rechercher une série', b: "Ce n'est pas" })).toEqual([]);
    expect(registerProblems('fr', { a: 'Échec : {{error}}', b: 'la clé « {{comment}} »', c: 'réessayez ; maintenant ?' })).toHaveLength(3);
    expect(registerProblems('fr', { a: 'Échec\u00a0: {{error}}', b: 'la clé «\u00a0{{comment}}\u00a0»', c: 'réessayez\u202f; maintenant\u202f?' })).toEqual([]);
  });

  describe.each(translations)('%s', (code) => {
    const messages = readLocale(code);

    it('has exactly the keys of en.json', () => {
      const { missing, extra } = compareKeys(code, english, messages);
      expect({ missing, extra }, `${code}: keys differ from en.json`).toEqual({ missing: [], extra: [] });
    });

    it('uses exactly the {{placeholders}} English uses, with balanced braces', () => {
      expect(placeholderProblems(english, messages)).toEqual([]);
    });

    it('gives every plural key the categories Intl.PluralRules has for the locale', () => {
      expect(pluralProblems(code, english, messages)).toEqual([]);
    });

    it('leaves no text as English wrote it, but words the language shares (locales/same-as-english.ts)', () => {
      expect(untranslatedProblems(code, english, messages)).toEqual([]);
    });

    it('addresses the reader one way throughout (locales/register.ts)', () => {
      expect(registerProblems(code, messages)).toEqual([]);
    });

    it('has no empty strings, its own name, and the direction of its script', () => {
      expect(metaProblems(code, messages)).toEqual([]);
    });

    it(`has a glossary of the ${requiredTerms().length} domain terms (locales/glossary/${code}.md)`, () => {
      expect(glossaryProblems(code)).toEqual([]);
    });
  });
});
