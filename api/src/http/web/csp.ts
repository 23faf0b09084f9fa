/**
 * Adjustments to the Content-Security-Policy helmet set (headers.ts) for HTML pages: the
 * prerendered pages carry small inline scripts, allowed by their hashes rather than by
 * 'unsafe-inline'; and /checkout-buttons is meant to be embedded in other sites' pages, so only
 * that page may be framed by any origin.
 */
import type { Response } from 'express';

const CSP = 'Content-Security-Policy';

/** Adds the sources to script-src, keeping every other source and directive. */
export function withScriptSources(policy: string, sources: readonly string[]): string {
  if (sources.length === 0) return policy;
  const directives = policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '');
  const index = directives.findIndex((directive) => directive.split(/\s+/)[0]?.toLowerCase() === 'script-src');
  // Without script-src, scripts fall back to default-src, which helmet sets to 'self'.
  if (index < 0) directives.push(`script-src 'self' ${sources.join(' ')}`);
  else directives[index] = `${directives[index]} ${sources.join(' ')}`;
  return directives.join(';');
}

export function allowInlineScripts(res: Response, sources: readonly string[]): void {
  const policy = res.getHeader(CSP);
  if (typeof policy === 'string') res.setHeader(CSP, withScriptSources(policy, sources));
}

export function allowAnyFramer(res: Response): void {
  res.removeHeader('X-Frame-Options');
  const policy = res.getHeader(CSP);
  if (typeof policy === 'string') res.setHeader(CSP, policy.replace(/frame-ancestors[^;]*/, 'frame-ancestors *'));
}
