import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { recordLoginAttempt } from '../auth/login-activity.ts';
import { recordSlowedFailure, unrecordedWhenQueueFull } from '../auth/login-methods.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { OAuth2LoginError, STATE_COOKIE, loadProviders } from '../auth/oauth2.ts';
import { OAuth2Clients, ProviderUnavailable, beginLogin, completeLogin } from '../auth/oauth2-flow.ts';
import { PendingLogins } from '../auth/pending-logins.ts';
import { deliverSession, openSession } from '../auth/sessions.ts';
import { notFound } from '../errors.ts';
import { publicBaseUrl, publicPath } from '../base-path.ts';
import { type RawQuery, stringParam } from '../query-params.ts';
import { type FolioApp, NamedQuery, Type } from '../schemas.ts';

const STATE_COOKIE_PATH = '/login/oauth2';
/** Failed OAuth2 callbacks count against the address under one shared "account". */
const OAUTH2_ACCOUNT = '\u0000oauth2';

/**
 * OAuth2 login (REFERENCE §1.12): the providers list, the redirect to a provider, and its callback,
 * which opens a session for the local user with the provider's (verified) email and sends the
 * browser to `/?server_redirect=Y`, or to `/login?server_redirect=Y&error=<code>` on failure.
 */
export function registerOAuth2Routes(app: FolioApp, ctx: FolioContext, throttle: LoginThrottle): void {
  const providers = loadProviders(ctx.dataDir, (message) => ctx.log(message));
  const pending = new PendingLogins();
  const clients = new OAuth2Clients();
  const find = (id: string) => providers.find((p) => p.registrationId === id);

  app.get('/api/v1/oauth2/providers', async () => providers.map((p) => ({ name: p.name, registrationId: p.registrationId })));

  app.get('/oauth2/authorization/:registrationId', { schema: { params: Type.Object({ registrationId: Type.String() }) } }, async (request, reply) => {
    const provider = find(request.params.registrationId);
    if (!provider) throw notFound();
    // Normalised (default port dropped) so the token call repeats it byte for byte.
    const redirectUri = new URL(`${publicBaseUrl(request)}/login/oauth2/code/${provider.registrationId}`).href;
    let start: Awaited<ReturnType<typeof beginLogin>>;
    try {
      start = await beginLogin(await clients.configuration(provider), provider, redirectUri, pending, request.ip ?? '');
    } catch (error) {
      // Discovery failed (provider down or misconfigured): back to the login screen with the
      // reason, RFC 6749's temporarily_unavailable. Logged when it fails, not at every login
      // refused during the back-off that follows.
      if (!(error instanceof ProviderUnavailable)) ctx.log(`OAuth2 provider ${provider.registrationId} unavailable: logins to it fail at once for a while`, error);
      return reply.redirect(publicPath(request, '/login?server_redirect=Y&error=temporarily_unavailable'), 302);
    }
    const { url, state } = start;
    // Binds the login to this browser: the callback must come back with the same state cookie.
    reply.setCookie(STATE_COOKIE, state, {
      path: publicPath(request, STATE_COOKIE_PATH),
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: 600,
    });
    return reply.redirect(url.toString(), 302);
  });

  app.get('/login/oauth2/code/:registrationId', { schema: { params: Type.Object({ registrationId: Type.String() }), querystring: NamedQuery(['code', 'state', 'error', 'error_description']) } }, async (request, reply) => {
      const source = `OAuth2:${request.params.registrationId}` as const;
      // Failed callbacks need no credentials (any state, any provider id): recorded like bad API keys.
      const fail = async (code: string, error: string, email: string | null = null) => {
        await recordSlowedFailure(ctx, throttle, request, OAUTH2_ACCOUNT, { source, success: false, error, email }).catch(unrecordedWhenQueueFull);
        return finish(request, reply, `/login?server_redirect=Y&error=${encodeURIComponent(code)}`);
      };
      const state = stringParam(request.query, 'state') ?? '';
      const login = state ? pending.take(state) : undefined;
      const provider = find(request.params.registrationId);
      if (!provider || !login || login.registrationId !== provider.registrationId || request.cookies[STATE_COOKIE] !== state) {
        return fail('invalid_state', 'Invalid or expired login state');
      }
      const providerError = stringParam(request.query, 'error');
      if (providerError) return fail(providerError.slice(0, 100), `Provider refused: ${providerError.slice(0, 100)}`);
      const code = stringParam(request.query, 'code');
      if (!code) return fail('invalid_request', 'No authorization code');

      let email: string;
      try {
        const query = new URLSearchParams(request.url.split('?')[1] ?? '');
        email = await completeLogin(await clients.configuration(provider), provider, query, login);
      } catch (error) {
        if (error instanceof OAuth2LoginError) return fail(error.code, error.message);
        ctx.log('OAuth2 login failed', error);
        return fail('server_error', 'Provider could not be reached');
      }
      const user = ctx.repos.users.findByEmail(email);
      if (!user) return fail('ERR_1025', 'No local user with this email', email);

      deliverSession(request, reply, openSession(ctx.repos.sessions, user.id, source).id);
      recordLoginAttempt(ctx, request, { source, success: true, userId: user.id, email: user.email });
      return finish(request, reply, '/?server_redirect=Y');
    },
  );
}

/** Back to the web client at `location` (a path of its own, under the base path), the login state cleared. */
function finish(request: FastifyRequest, reply: FastifyReply, location: string) {
  reply.clearCookie(STATE_COOKIE, { path: publicPath(request, STATE_COOKIE_PATH), httpOnly: true });
  return reply.redirect(publicPath(request, location), 302);
}
