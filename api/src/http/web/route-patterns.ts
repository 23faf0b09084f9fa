/**
 * Matches a path against the web app's react-router route patterns, the way react-router does
 * (its compilePath): `:name` is one non-empty segment (`:name?` an optional one), a trailing `*`
 * is the rest of the path, trailing slashes are ignored, letters match case-insensitively and
 * the path is compared decoded. A path that matches is a page the client can render, so it gets
 * the shell rather than the not-found page.
 */

function patternToRegExp(pattern: string): RegExp {
  let source = pattern
    .replace(/\/*\*?$/, '')
    .replace(/^\/*/, '/')
    .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
    .replace(/\/:[\w-]+(\?)?/g, (_match, optional?: string) => (optional ? '(?:/[^/]+)?' : '/[^/]+'));
  if (pattern.endsWith('*')) source += pattern === '*' || pattern === '/*' ? '.*' : '(?:/.+|/*)';
  else source += '/*';
  return new RegExp(`^${source}$`, 'i');
}

/** Decodes each segment as react-router does, keeping an encoded slash inside its segment. */
function decodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replace(/\//g, '%2F');
      } catch {
        return segment;
      }
    })
    .join('/');
}

export function routeMatcher(patterns: readonly string[]): (path: string) => boolean {
  const expressions = patterns.map(patternToRegExp);
  return (path) => {
    const decoded = decodePath(path);
    return expressions.some((expression) => expression.test(decoded));
  };
}
