import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, SeriesDto } from '../../../src/api/types.ts';
import { type CompatServer, startCompatServer } from './komga-compat-helpers.ts';

/**
 * Komga binds JSON with Jackson: numbers and booleans sent as strings are coerced, property names
 * and enum values match in any case, and what cannot be coerced is a 400 that names the field.
 * Form-based clients (komga-webui's edit dialogs, scripts) send "3", "2.5", "true".
 */
let c: CompatServer;
beforeAll(async () => {
  c = await startCompatServer();
});
afterAll(async () => {
  await c.server.close();
});

const patch = (url: string, body: unknown) => c.send('PATCH', url, { contentType: 'application/json', body });
const settings = () => c.server.json<{ taskPoolSize: number; deleteEmptyCollections: boolean; thumbnailSize: string; rememberMeDurationDays: number }>('/api/v1/settings');

describe('PATCH /api/v1/settings', () => {
  it('{"taskPoolSize":"3"} sets three workers', async () => {
    expect((await patch('/api/v1/settings', { taskPoolSize: '3' })).statusCode).toBe(204);
    expect((await settings()).taskPoolSize).toBe(3);
    expect(c.server.app.folio.tasks.workers).toBe(3);
  });

  it('booleans as "true", enum values and property names in any case', async () => {
    const response = await patch('/api/v1/settings', { deleteEmptyCollections: 'true', thumbnailSize: 'large', RememberMeDurationDays: '30' });
    expect(response.statusCode, response.body).toBe(204);
    expect(await settings()).toMatchObject({ deleteEmptyCollections: true, thumbnailSize: 'LARGE', rememberMeDurationDays: 30 });
  });

  it('values that cannot be coerced are a 400 naming the field, and nothing changes', async () => {
    for (const body of [{ taskPoolSize: 'three' }, { taskPoolSize: '2.5' }, { taskPoolSize: 0 }, { deleteEmptyCollections: 'maybe' }, { thumbnailSize: 'HUGE' }]) {
      const response = await patch('/api/v1/settings', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toContain(Object.keys(body)[0]);
    }
    expect((await settings()).taskPoolSize).toBe(3);
  });

  it('null keeps a value', async () => {
    expect((await patch('/api/v1/settings', { taskPoolSize: null, thumbnailSize: null })).statusCode).toBe(204);
    expect(await settings()).toMatchObject({ taskPoolSize: 3, thumbnailSize: 'LARGE' });
  });
});

describe('PATCH /api/v1/series/{id}/metadata', () => {
  const alpha = () => c.series.find((s) => s.name === 'Alpha')!;
  const metadata = async () => (await c.server.json<SeriesDto>(`/api/v1/series/${alpha().id}`)).metadata;

  it('{"ageRating":"12","totalBookCount":"4"} sets both', async () => {
    const response = await patch(`/api/v1/series/${alpha().id}/metadata`, { ageRating: '12', totalBookCount: '4' });
    expect(response.statusCode, response.body).toBe(204);
    expect(await metadata()).toMatchObject({ ageRating: 12, totalBookCount: 4 });
  });

  it('enum values in any case and locks as "true"', async () => {
    expect((await patch(`/api/v1/series/${alpha().id}/metadata`, { status: 'ended', readingDirection: 'right_to_left', statusLock: 'true' })).statusCode).toBe(204);
    expect(await metadata()).toMatchObject({ status: 'ENDED', readingDirection: 'RIGHT_TO_LEFT', statusLock: true });
  });

  it('an explicit null clears a presence-tracked field; absent keeps it', async () => {
    expect((await patch(`/api/v1/series/${alpha().id}/metadata`, { ageRating: null })).statusCode).toBe(204);
    expect(await metadata()).toMatchObject({ ageRating: null, totalBookCount: 4 });
  });

  it('"twelve" is a 400 that names ageRating', async () => {
    const response = await patch(`/api/v1/series/${alpha().id}/metadata`, { ageRating: 'twelve' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('ageRating');
  });
});

describe('PATCH /api/v1/books/{id}/metadata', () => {
  const book = () => c.books.find((b) => b.name === 'Alpha 02')!;
  const metadata = async () => (await c.server.json<BookDto>(`/api/v1/books/${book().id}`)).metadata;

  it('{"numberSort":"2.5"} sets 2.5', async () => {
    const response = await patch(`/api/v1/books/${book().id}/metadata`, { numberSort: '2.5', numberSortLock: 'true' });
    expect(response.statusCode, response.body).toBe(204);
    expect(await metadata()).toMatchObject({ numberSort: 2.5, numberSortLock: true });
  });

  it('a number where text is expected becomes text, as Jackson does', async () => {
    expect((await patch(`/api/v1/books/${book().id}/metadata`, { number: 7, title: 42 })).statusCode).toBe(204);
    expect(await metadata()).toMatchObject({ number: '7', title: '42' });
  });

  it('PATCH /api/v1/books/metadata (several books) coerces each update', async () => {
    const response = await patch('/api/v1/books/metadata', { [book().id]: { numberSort: '3.25' } });
    expect(response.statusCode, response.body).toBe(204);
    expect((await metadata()).numberSort).toBe(3.25);
  });

  it('releaseDate in the forms Jackson reads a LocalDate from; an empty text clears it', async () => {
    const cases: [unknown, string | null][] = [
      [' 2020-01-02 ', '2020-01-02'],
      ['2021-03-04T10:20:30', '2021-03-04'],
      // A script's new Date().toISOString().
      ['2022-05-06T07:08:09.123Z', '2022-05-06'],
      ['', null],
    ];
    for (const [sent, stored] of cases) {
      const response = await patch(`/api/v1/books/${book().id}/metadata`, { releaseDate: sent });
      expect(response.statusCode, `${JSON.stringify(sent)}: ${response.body}`).toBe(204);
      expect((await metadata()).releaseDate, JSON.stringify(sent)).toBe(stored);
    }
    for (const sent of ['2020-1-2', '02/01/2020', '2020-01-02T10:00:00+02:00']) {
      const response = await patch(`/api/v1/books/${book().id}/metadata`, { releaseDate: sent });
      expect(response.statusCode, sent).toBe(400);
      expect(response.json().message).toContain('releaseDate');
    }
  });

  it('"two and a half" is a 400 that names numberSort', async () => {
    const response = await patch(`/api/v1/books/${book().id}/metadata`, { numberSort: 'two and a half' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('numberSort');
  });
});

describe('Boolean and number query parameters, as Spring converts them', () => {
  it('takes true/on/yes/1 and false/off/no/0 in any case, and an empty value as none (before: 400 for all but "true"/"false")', async () => {
    for (const value of ['TRUE', 'True', '1', 'yes', 'On', 'FALSE', '0', 'no', 'off', '', ' true ']) {
      const regenerate = await c.send('PUT', `/api/v1/books/thumbnails?for_bigger_result_only=${encodeURIComponent(value)}`);
      expect(regenerate.statusCode, `for_bigger_result_only=${value}: ${regenerate.body}`).toBe(202);
      const scan = await c.send('POST', `/api/v1/libraries/${c.library.id}/scan?deep=${encodeURIComponent(value)}`);
      expect(scan.statusCode, `deep=${value}: ${scan.body}`).toBe(202);
      await c.server.app.folio.tasks.idle();
    }
  });

  it('refuses another word with a 400 naming the parameter', async () => {
    const response = await c.send('PUT', '/api/v1/books/thumbnails?for_bigger_result_only=maybe');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('for_bigger_result_only');
  });
});

describe('the list filters’ Boolean parameters, as Spring converts them', () => {
  const count = async (query: string) => {
    const response = await c.send('GET', `/api/v1/series?${query}`);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
    return response.json().totalElements as number;
  };

  it('reads Spring’s words for false and true alike', async () => {
    const notDeleted = await count('deleted=false');
    for (const word of ['no', 'OFF', '0', ' False ']) expect(await count(`deleted=${encodeURIComponent(word)}`), word).toBe(notDeleted);
    expect(await count('deleted=yes')).toBe(await count('deleted=true'));
  });

  it('refuses another word with a 400 naming the parameter (before: read as false)', async () => {
    for (const url of ['/api/v1/series?deleted=maybe', '/api/v1/series/new?oneshot=maybe', `/api/v1/books/${c.books[0]!.id}/pages/1?zero_based=maybe`]) {
      const response = await c.send('GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(/deleted|oneshot|zero_based/);
    }
  });
});

describe('Boolean and number fields sent as text, as Jackson reads them', () => {
  it('"True" and "TRUE" are true, "False" and "FALSE" false (before: 400)', async () => {
    for (const [sent, read] of [['TRUE', true], ['False', false], ['True', true], ['FALSE', false]] as const) {
      const response = await patch('/api/v1/settings', { deleteEmptyCollections: sent });
      expect(response.statusCode, `${sent}: ${response.body}`).toBe(204);
      expect((await settings()).deleteEmptyCollections, sent).toBe(read);
    }
    expect((await patch('/api/v1/settings', { deleteEmptyCollections: 'tRuE' })).statusCode).toBe(400);
  });

  it('"" is null: a presence-tracked number is cleared, as with null (before: set to 0)', async () => {
    const alpha = c.series.find((s) => s.name === 'Alpha')!;
    expect((await patch(`/api/v1/series/${alpha.id}/metadata`, { ageRating: 16 })).statusCode).toBe(204);
    const response = await patch(`/api/v1/series/${alpha.id}/metadata`, { ageRating: '', totalBookCount: ' ' });
    expect(response.statusCode, response.body).toBe(204);
    expect((await c.server.json<SeriesDto>(`/api/v1/series/${alpha.id}`)).metadata).toMatchObject({ ageRating: null, totalBookCount: null });
  });
});

describe('query values Komga binds as a date or a Boolean', () => {
  it('released_after is an ISO day: another spelling or a day that does not exist is a 400 (before: ignored)', async () => {
    expect((await c.send('GET', '/api/v1/books?released_after=2020-01-01')).statusCode).toBe(200);
    expect((await c.send('GET', '/api/v1/books?released_after=')).statusCode).toBe(200);
    for (const day of ['2020-13-45', '2020-02-30', '01/02/2020', '2020-1-2']) {
      const response = await c.send('GET', `/api/v1/books?released_after=${encodeURIComponent(day)}`);
      expect(response.statusCode, day).toBe(400);
      expect(response.json().message, day).toContain('released_after');
    }
  });

  it('GET /api/v2/users/me?remember-me= takes Spring’s words and refuses others (before: any value)', async () => {
    expect((await c.send('GET', '/api/v2/users/me?remember-me=yes')).statusCode).toBe(200);
    const response = await c.send('GET', '/api/v2/users/me?remember-me=maybe');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('remember-me');
  });
});
