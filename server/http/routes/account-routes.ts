import type { FolioContext } from '../../domain/context.ts';
import type { FolioApp } from '../schemas.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { registerApiKeyRoutes } from './api-key-routes.ts';
import { registerOAuth2Routes } from './oauth2-routes.ts';
import { registerUserRoutes } from './user-routes.ts';

/** Everything about accounts beyond login itself: users, passwords, activity, API keys. */
export function registerAccountRoutes(app: FolioApp, ctx: FolioContext, throttle: LoginThrottle): void {
  registerUserRoutes(app, ctx, throttle);
  registerApiKeyRoutes(app, ctx);
  registerOAuth2Routes(app, ctx, throttle);
}
