import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { page } from 'vitest/browser';
import { failRequests } from '../support/folio.ts';
import { renderAt } from './render.tsx';

/*
 * Failures the client used to turn into nothing: the way on stays the same (the login screen, a
 * local logout), but the console now says what failed. The server answers are made by the browser
 * (failRequests): the real server cannot be made to fail a session check or a logout on demand.
 */

const { StartupScreen } = await import('../../../src/ui/screens/StartupScreen.tsx');
const { endSession, session } = await import('../../../src/ui/store/session.ts');

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => {
  view?.unmount();
  vi.restoreAllMocks();
});

/** The console warnings written while `run` runs, as text. */
async function warningsDuring(run: () => Promise<void>): Promise<string[]> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  await run();
  return warn.mock.calls.map((call) => call.map(String).join(' '));
}

describe('the startup screen', () => {
  it('says why a session could not be restored when the server failed, and still asks to log in', async () => {
    const failing = await failRequests(/\/api\/v2\/users\/me$/, 500, { message: 'database is locked' }, 'GET');
    onTestFinished(() => failing.restore());
    const warnings = await warningsDuring(async () => {
      view = renderAt('/startup?redirect=%2Fseries%2FS1', <StartupScreen />);
      await expect.poll(() => view!.currentPath()).toBe('/login?redirect=%2Fseries%2FS1');
    });
    expect(warnings).toContainEqual(expect.stringMatching(/The session could not be restored.*500/));
  });

  it('stays quiet when there simply is no session (401)', async () => {
    const anonymous = await failRequests(/\/api\/v2\/users\/me$/, 401, { message: 'Unauthorized' }, 'GET');
    onTestFinished(() => anonymous.restore());
    const warnings = await warningsDuring(async () => {
      view = renderAt('/startup?redirect=%2Fseries%2FS1', <StartupScreen />);
      await expect.poll(() => view!.currentPath()).toBe('/login?redirect=%2Fseries%2FS1');
    });
    expect(warnings.filter((w) => w.includes('session'))).toEqual([]);
  });
});

describe('logging out', () => {
  it('ends the local session when the server does not answer, and says so', async () => {
    const failing = await failRequests(/\/api\/logout$/, 503, { message: 'Service Unavailable' }, 'POST');
    onTestFinished(() => failing.restore());
    session.me = { id: 'u1', email: 'someone@example.org', roles: ['USER'] } as typeof session.me;
    const warnings = await warningsDuring(() => endSession());
    expect(session.me).toBeNull();
    // The 503 in the warning is the browser's answer: the real server's session was never ended.
    expect(warnings).toContainEqual(expect.stringMatching(/did not confirm the logout.*503/));
  });
});
