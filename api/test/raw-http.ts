/**
 * A bare HTTP client for tests that must send what fetch refuses to: a body on a GET, any
 * content type, bytes that are not JSON. Answers status, headers and the body (parsed when JSON).
 */
import { request } from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the text when the body is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body whose shape the assertions check.
  body: any;
}

export function rawRequest(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(req.path, baseUrl);
  const headers: Record<string, string> = { ...req.headers };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: req.method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON: the test sees the text.
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}
