/**
 * The words of a statement's CSV and PDF, in English or Spanish, from the i18n resources: the
 * statements namespace, and the history's kinds from the wallet namespace (the words the
 * dashboard's history uses for the same movements).
 */
import en from '@quern/core/locales/en/statements.json' with { type: 'json' };
import es from '@quern/core/locales/es/statements.json' with { type: 'json' };
import enWallet from '@quern/core/locales/en/wallet.json' with { type: 'json' };
import esWallet from '@quern/core/locales/es/wallet.json' with { type: 'json' };
import type { StatementLanguage, StatementRow } from '@quern/core/statements';
import { SYSTEM_WALLET_IDS } from '@quern/core/wallet';

export type StatementWords = (typeof en)['document'];

export interface StatementTexts {
  words: StatementWords;
  kind(kind: string): string;
  /** The counterparty as a reader names it: a username, a system account, or the address paid or paying. */
  counterparty(row: Pick<StatementRow, 'counterparty' | 'counterparty_address'>): string;
  page(page: number): string;
}

const systemWords: Record<string, keyof StatementWords> = {
  [SYSTEM_WALLET_IDS.reserve]: 'systemReserve',
  [SYSTEM_WALLET_IDS.fee]: 'systemFee',
  [SYSTEM_WALLET_IDS.network]: 'systemNetwork',
  [SYSTEM_WALLET_IDS.genesis]: 'systemGenesis',
};

export function statementTexts(language: StatementLanguage): StatementTexts {
  const words = (language === 'es' ? es : en).document;
  const kinds: Record<string, string> = (language === 'es' ? esWallet : enWallet).history.kinds;
  return {
    words,
    kind: (kind) => kinds[kind] ?? kind,
    counterparty: (row) => {
      const system = systemWords[row.counterparty];
      if (system) return words[system];
      return row.counterparty || row.counterparty_address;
    },
    page: (page) => words.page.replace('{{page}}', String(page)),
  };
}
