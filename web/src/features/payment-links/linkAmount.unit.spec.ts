// Proves what a typed payment-link amount becomes for the server: MLX grouped as the page writes it
// goes as bare digits, in the page's language only; USD and anything unreadable go as typed.
import { describe, expect, it } from 'vitest';
import { linkAmountForServer } from './linkAmount.js';

describe('linkAmountForServer', () => {
  it("given MLX grouped in the page's language, then bare digits go to the server", () => {
    expect(linkAmountForServer('5,000', 'MLX', 'en')).toBe('5000');
    expect(linkAmountForServer('12.500', 'MLX', 'es')).toBe('12500');
    expect(linkAmountForServer(' 2500 ', 'MLX', 'en')).toBe('2500');
  });

  it('given MLX the language does not read as whole, then it goes as typed for the server to refuse', () => {
    expect(linkAmountForServer('5.000', 'MLX', 'en')).toBe('5.000');
    expect(linkAmountForServer('12,5', 'MLX', 'es')).toBe('12,5');
    expect(linkAmountForServer('', 'MLX', 'en')).toBe('');
  });

  it('given USD, then the text goes as typed, trimmed', () => {
    expect(linkAmountForServer(' 12.50 ', 'USD', 'en')).toBe('12.50');
    expect(linkAmountForServer('12,50', 'USD', 'es')).toBe('12,50');
  });
});
