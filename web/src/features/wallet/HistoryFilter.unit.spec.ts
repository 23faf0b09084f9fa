// Proves the history filter's URL handling: the query parameters become the form's text, empty fields are left out, nothing given is no filter, and bad text is refused per field with the server's message keys.
import { describe, expect, it } from 'vitest';
import { filterTextOf, parseFilterText } from './HistoryFilter.js';

const text = (fields: Partial<Record<'kind' | 'counterparty' | 'from' | 'to', string>>) => ({
  kind: '',
  counterparty: '',
  from: '',
  to: '',
  ...fields,
});

describe('history filter text', () => {
  it('reads the URL query, missing parameters as empty', () => {
    expect(filterTextOf(new URLSearchParams('kind=sent&from=2026-01-01&page=3'))).toEqual(text({ kind: 'sent', from: '2026-01-01' }));
  });

  it('given nothing, then there is no filter', () => {
    expect(parseFilterText(text({}))).toEqual({ ok: true, filter: undefined });
    expect(parseFilterText(text({ counterparty: '   ' }))).toEqual({ ok: true, filter: undefined });
  });

  it('given fields, then the filter holds only those, the counterparty trimmed', () => {
    expect(parseFilterText(text({ kind: 'received', counterparty: ' Alice_1 ', to: '2026-02-01' }))).toEqual({
      ok: true,
      filter: { kind: 'received', counterparty: 'Alice_1', to: '2026-02-01' },
    });
  });

  it('given bad text, then each field gets its own message', () => {
    expect(parseFilterText(text({ kind: 'DEBIT', counterparty: 'a b', from: '2026-02-30' }))).toEqual({
      ok: false,
      errors: { kind: 'errors:historyFilterKind', counterparty: 'errors:historyFilterCounterparty', from: 'errors:historyFilterFrom' },
    });
    expect(parseFilterText(text({ from: '2026-02-02', to: '2026-02-01' }))).toEqual({
      ok: false,
      errors: { to: 'errors:historyFilterRange' },
    });
  });
});
