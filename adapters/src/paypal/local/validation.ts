/**
 * Request-body checks for the local server, answering with the issues PayPal's Orders and
 * Payments APIs use. Narrower than PayPal where Quern needs no more (one purchase unit, USD,
 * intent CAPTURE): a request outside that scope is refused, never half-handled.
 */
import { isTwoDecimalValue } from '../money.js';
import { invalidRequest, PayPalProtocolError, unprocessable } from './errors.js';
import type { PurchaseUnitInput } from './state.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalString = (unit: Record<string, unknown>, key: string, max: number, field: string): void => {
  const value = unit[key];
  if (value === undefined) return;
  if (typeof value !== 'string' || value.length > max) {
    throw invalidRequest({
      field,
      value: String(value),
      issue: 'INVALID_STRING_LENGTH',
      description: `The value of ${key} must be a string of at most ${max} characters.`,
    });
  }
};

/** Checks an amount object; `field` is its JSON pointer for the error details. */
export function checkUsdAmount(amount: unknown, field: string): { currency_code: string; value: string } {
  if (!isObject(amount)) {
    throw invalidRequest({ field, issue: 'MISSING_REQUIRED_PARAMETER', description: 'A required field / parameter is missing.' });
  }
  const currency = amount.currency_code;
  if (currency === undefined) {
    throw invalidRequest({
      field: `${field}/currency_code`,
      issue: 'MISSING_REQUIRED_PARAMETER',
      description: 'A required field / parameter is missing.',
    });
  }
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
    throw invalidRequest({
      field: `${field}/currency_code`,
      value: String(currency),
      issue: 'INVALID_PARAMETER_VALUE',
      description: 'The value of a field is invalid.',
    });
  }
  if (currency !== 'USD') {
    // A well-formed code the local merchant does not accept, as PayPal answers for a currency
    // the account cannot receive.
    throw new PayPalProtocolError('UNPROCESSABLE_ENTITY', [
      {
        field: `${field}/currency_code`,
        value: currency,
        location: 'body',
        issue: 'CURRENCY_NOT_SUPPORTED',
        description: 'Currency code is not currently supported. The local PayPal server accepts USD only.',
      },
    ]);
  }
  const value = amount.value;
  if (value === undefined) {
    throw invalidRequest({
      field: `${field}/value`,
      issue: 'MISSING_REQUIRED_PARAMETER',
      description: 'A required field / parameter is missing.',
    });
  }
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value)) {
    throw invalidRequest({
      field: `${field}/value`,
      value: String(value),
      issue: 'INVALID_PARAMETER_SYNTAX',
      description: 'The value of a field does not conform to the expected format.',
    });
  }
  if (!isTwoDecimalValue(value)) {
    throw invalidRequest({
      field: `${field}/value`,
      value,
      issue: 'DECIMAL_PRECISION',
      description: 'If the currency supports decimals, only two decimal place precision is supported.',
    });
  }
  if (/^0+\.00$/.test(value)) {
    throw unprocessable('AMOUNT_MUST_BE_POSITIVE', 'The amount must be greater than zero.', `${field}/value`);
  }
  return { currency_code: currency, value };
}

export function parseCreateOrderBody(body: unknown): PurchaseUnitInput[] {
  if (!isObject(body)) throw malformedJson();
  if (body.intent === undefined) {
    throw invalidRequest({
      field: '/intent',
      issue: 'MISSING_REQUIRED_PARAMETER',
      description: 'A required field / parameter is missing.',
    });
  }
  if (body.intent !== 'CAPTURE') {
    throw invalidRequest({
      field: '/intent',
      value: String(body.intent),
      issue: 'INVALID_PARAMETER_VALUE',
      description: 'The value of a field is invalid. The local PayPal server supports intent CAPTURE only.',
    });
  }
  const units = body.purchase_units;
  if (!Array.isArray(units) || units.length === 0) {
    throw invalidRequest({
      field: '/purchase_units',
      issue: 'MISSING_REQUIRED_PARAMETER',
      description: 'A required field / parameter is missing.',
    });
  }
  if (units.length > 1) {
    throw invalidRequest({
      field: '/purchase_units',
      issue: 'INVALID_ARRAY_MAX_ITEMS',
      description: 'The local PayPal server accepts one purchase unit.',
    });
  }
  const unit = units[0];
  if (!isObject(unit)) {
    throw invalidRequest({
      field: '/purchase_units/0',
      issue: 'INVALID_PARAMETER_SYNTAX',
      description: 'The value of a field does not conform to the expected format.',
    });
  }
  const field = `/purchase_units/@reference_id=='${typeof unit.reference_id === 'string' ? unit.reference_id : 'default'}'`;
  const amount = checkUsdAmount(unit.amount, `${field}/amount`);
  optionalString(unit, 'reference_id', 256, `${field}/reference_id`);
  optionalString(unit, 'custom_id', 255, `${field}/custom_id`);
  optionalString(unit, 'invoice_id', 127, `${field}/invoice_id`);
  optionalString(unit, 'description', 127, `${field}/description`);
  if (unit.items !== undefined && !Array.isArray(unit.items)) {
    throw invalidRequest({
      field: `${field}/items`,
      issue: 'INVALID_PARAMETER_SYNTAX',
      description: 'The value of a field does not conform to the expected format.',
    });
  }
  const input: PurchaseUnitInput = { amount: { ...(unit.amount as Record<string, unknown>), ...amount } };
  for (const key of ['reference_id', 'custom_id', 'invoice_id', 'description'] as const) {
    if (typeof unit[key] === 'string') input[key] = unit[key] as string;
  }
  if (Array.isArray(unit.items)) input.items = unit.items;
  return [input];
}

/** Refund body: empty (full refund) or `{ amount }`. Returns cents as the amount's string. */
export function parseRefundBody(body: unknown): { value: string } | undefined {
  if (body === undefined || (isObject(body) && body.amount === undefined)) return undefined;
  if (!isObject(body)) throw malformedJson();
  return checkUsdAmount(body.amount, '/amount');
}

export function malformedJson(): PayPalProtocolError {
  return invalidRequest({ issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' });
}
