// Proves that an address is judged well-formed exactly when each path segment and each query
// name and value percent-decodes, so broken encodings are refused wherever they stand.
import { describe, expect, it } from 'vitest';
import { hasWellFormedEncoding } from './url-encoding.js';

describe('hasWellFormedEncoding', () => {
  it('accepts plain, encoded and empty parts', () => {
    for (const url of [
      '/api/millix/balance/abc',
      '/api/user/username/a%20b',
      '/api/x?page=0&to=%C3%A9',
      '/api/x?',
      '/api/x?a&b=',
      '/trpc/a,b?batch=1',
    ])
      expect(hasWellFormedEncoding(url), url).toBe(true);
  });

  it('refuses broken encodings in the path and in the query', () => {
    for (const url of [
      '/api/millix/balance/%00%ff',
      '/api/x/%',
      '/api/x/%zz',
      '/api/x/%E0%A4%A',
      '/api/x?page=%ff',
      '/api/x?%=1',
      '/api/x?a=1&b=%',
    ])
      expect(hasWellFormedEncoding(url), url).toBe(false);
  });
});
