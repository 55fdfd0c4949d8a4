import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { LiveEvent } from '../../../src/api/events.ts';
import type { BookDto, LibraryDto, Page, UserDto } from '../../../src/api/types.ts';
import { actAsNewUser, callFromNode, failRequests, logInAsAdmin, makeFolder, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

/**
 * The session watcher against the run's real server: the live event stream is the server's
 * (/sse/v1/events), its events come from real actions (a library added and scanned, a book's read
 * progress), and the session that ends is a real one. Every browser file shares the administrator's
 * session cookie, so the cases that end a session act as a user of their own (actAsNewUser), whose
 * session nobody else uses.
 */
const { LiveEvents } = await import('../../../src/ui/events/LiveEvents.tsx');
const { live, onLiveEvent } = await import('../../../src/ui/events/liveStore.ts');
const { loadLibraries, session } = await import('../../../src/ui/store/session.ts');
const { login } = await import('../../../src/api/auth.ts');

/** Every event this page's stream delivers while the test runs. */
function recordEvents(): LiveEvent[] {
  const seen: LiveEvent[] = [];
  onTestFinished(onLiveEvent((event) => seen.push(event)));
  return seen;
}

/** A test's budget: a scan and a few round trips through the stream, on a machine that may be loaded. */
const LIVE_TEST_MS = 60_000;

const about = (id: string) => (event: LiveEvent) => Object.values(event.data).includes(id);

let view: ReturnType<typeof renderAt> | undefined;
beforeEach(async () => {
  session.me = await logInAsAdmin();
  session.libraries = [];
  session.endedReason = null;
});
afterEach(() => {
  view?.unmount();
  view = undefined;
});

describe('LiveEvents (session watcher)', () => {
  it('opens the stream while authenticated and closes it when the user goes away', async () => {
    view = renderAt('/dashboard', <LiveEvents />);
    await vi.waitFor(() => expect(live.connected).toBe(true), { timeout: 15_000 });
    session.me = null;
    await vi.waitFor(() => expect(live.connected).toBe(false));
  }, LIVE_TEST_MS);

  it('re-publishes the server\'s content events and reloads libraries on library events', async () => {
    const seen = recordEvents();
    view = renderAt('/dashboard', <LiveEvents />);
    await vi.waitFor(() => expect(live.connected).toBe(true), { timeout: 15_000 });
    // A library added and scanned: its events come over the stream.
    const libraryId = await seedLibrary('live-events', [{ folder: 'Live Series', books: [{ name: 'Live 01', pages: [[200, 40, 40]] }] }]);
    await vi.waitFor(() => {
      const names = seen.filter(about(libraryId)).map((e) => e.name);
      expect(names).toContain('LibraryAdded');
      expect(names).toContain('SeriesAdded');
      expect(names).toContain('BookAdded');
    }, { timeout: 15_000 });
    // LibraryAdded made the drawer's list reload (it was emptied before the test).
    await vi.waitFor(() => expect(session.libraries.map((l: LibraryDto) => l.id)).toContain(libraryId));
    expect(live.announcesContentChanges).toBe(true);
    // A progress change on a book of it.
    const book = (await rest<Page<BookDto>>('GET', `/api/v1/books?library_id=${libraryId}`)).content[0]!;
    await rest('PATCH', `/api/v1/books/${book.id}/read-progress`, { completed: true });
    await vi.waitFor(() => expect(seen.filter(about(book.id)).map((e) => e.name)).toContain('ReadProgressChanged'), { timeout: 15_000 });
  }, LIVE_TEST_MS);

  it('logs out with a message on SessionExpired for this user, even when the logout call fails', async () => {
    const other = await rest<UserDto>('POST', '/api/v2/users', { email: 'live-bystander@example.org', password: 'live-bystander-1', roles: [] });
    const me = await actAsNewUser('live-expiry@example.org', 'live-expiry-1');
    onTestFinished(me.release);
    // The server cannot be made to fail a logout; the browser answers it here (and so the logout
    // of this file's user never reaches the server, which ends that session by itself anyway).
    const logout = await failRequests(/\/api\/logout$/, 500, { message: 'server down' }, 'POST');
    onTestFinished(logout.restore);
    session.me = me.user;
    const seen = recordEvents();
    view = renderAt('/series/1', <LiveEvents />);
    await vi.waitFor(() => expect(live.connected).toBe(true), { timeout: 15_000 });

    // Another user's sessions end (the administrator changes their password): not this one's.
    expect((await callFromNode('PATCH', `/api/v2/users/${other.id}/password`, { body: { password: 'live-bystander-2' } })).status).toBe(204);
    // An event that follows it on the stream proves it was not delivered (or not acted upon).
    const root = await makeFolder('live-expiry-after');
    const created = await callFromNode('POST', '/api/v1/libraries', { body: { name: 'live-expiry-after', root } });
    const after = (JSON.parse(created.body) as LibraryDto).id;
    await vi.waitFor(() => expect(seen.some(about(after))).toBe(true), { timeout: 15_000 });
    expect(session.me?.id).toBe(me.user.id);

    // This user's sessions end: the stream says so, the client logs out and says why.
    expect((await callFromNode('PATCH', `/api/v2/users/${me.user.id}/password`, { body: { password: 'live-expiry-2' } })).status).toBe(204);
    await vi.waitFor(() => expect(session.me).toBeNull(), { timeout: 15_000 });
    await vi.waitFor(async () => expect(await logout.answered()).toBe(1));
    expect(session.endedReason).toBe('Your session has expired. Please log in again.');
    await vi.waitFor(() => expect(view?.currentPath()).toBe('/login'));
  }, LIVE_TEST_MS);

  it('treats a 401 on an ordinary call as an ended session and comes back after login', async () => {
    const me = await actAsNewUser('live-401@example.org', 'live-401-1');
    onTestFinished(me.release);
    session.me = me.user;
    view = renderAt('/libraries/all/series?page=2', <LiveEvents />);
    await vi.waitFor(() => expect(live.connected).toBe(true), { timeout: 15_000 });
    // The session ends on the server without a word on the stream (logged out elsewhere).
    expect((await callFromNode('POST', '/api/logout', { token: me.token })).status).toBe(204);
    // A refused login is no ended session…
    await expect(login('live-nobody@example.org', 'wrong', false)).rejects.toMatchObject({ status: 401 });
    expect(session.me?.id).toBe(me.user.id);
    // …a refused ordinary call is.
    await expect(loadLibraries()).rejects.toMatchObject({ status: 401 });
    await vi.waitFor(() => expect(session.me).toBeNull());
    await vi.waitFor(() => expect(view?.currentPath()).toBe('/login?redirect=%2Flibraries%2Fall%2Fseries%3Fpage%3D2'));
  }, LIVE_TEST_MS);
});
