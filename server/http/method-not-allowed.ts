import type { RouteOptions } from 'fastify';

/**
 * The methods a path is routed for, to answer a request for another method as Spring MVC does: a
 * path its controllers map, asked with a method none of them takes, is 405 Method Not Allowed with
 * an `Allow` header (HttpRequestMethodNotSupportedException), not 404. Only paths no route takes
 * with the request's method reach this (Fastify's not-found handler), so it costs nothing to routed
 * requests; the patterns are compiled once, at the first such request, when every route is known.
 */
export class RouteMethods {
  private readonly routes: readonly RouteOptions[];
  private compiled: { pattern: RegExp; methods: string[] }[] | undefined;

  constructor(routes: readonly RouteOptions[]) {
    this.routes = routes;
  }

  /** The methods routed for this path (without query), in Spring's `Allow` order; empty when none is. */
  allowed(path: string): string[] {
    this.compiled ??= this.routes.map((route) => ({ pattern: patternOf(route.url), methods: [route.method].flat().map(String) }));
    const methods = new Set(this.compiled.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods));
    // Spring answers HEAD wherever it answers GET.
    if (methods.has('GET')) methods.add('HEAD');
    return ALLOW_ORDER.filter((method) => methods.has(method));
  }
}

const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A Fastify route path as a regular expression: `:name` is one path segment, `*` anything. */
function patternOf(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z_][\w]*|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}
