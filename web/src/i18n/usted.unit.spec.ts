// Spanish addresses the reader as usted on every page, e-mail and API error. This scans every
// Spanish resource for words that only the tú form uses, so a new string cannot slip back to tú.
// The lists are exact words, not stems, so usted text such as "Términos", "límite", "existe" or
// "lo que nos escribe" never matches.
import { describe, expect, it } from 'vitest';

const files = import.meta.glob<unknown>('../../../core/src/i18n/locales/es/*.json', { eager: true, import: 'default' });

/** Words that are tú wherever they appear (pronouns, tú verb forms, tú imperatives with pronouns). */
const TU_WORDS = [
  'tu',
  'tus',
  'tú',
  'te',
  'ti',
  'contigo',
  'tuyo',
  'tuya',
  'tuyos',
  'tuyas',
  'puedes',
  'tienes',
  'quieres',
  'debes',
  'necesitas',
  'estás',
  'eres',
  'recibes',
  'pagas',
  'aceptas',
  'aceptes',
  'hagas',
  'has',
  'haz',
  'ten',
  'pulsa',
  'elige',
  'introduce',
  'inténtalo',
  'revísalo',
  'déjalo',
  'envíala',
  'cámbiala',
  'restablécela',
  'reenvíalo',
  'omítelo',
  'regístrate',
  'suscríbete',
  'asegúrate',
  'contáctanos',
  'escríbenos',
  'suscribirte',
  'pagarte',
  'puedas',
  'quieras',
  'creaste',
  'pediste',
  'hiciste',
  'pagaste',
  'cancelaste',
  'cambiaste',
  'aceptaste',
  'eliminaste',
  'escribiste',
  'terminaste',
  'fuiste',
  'olvidaste',
  'podrás',
  'tendrás',
  'recibirás',
  'encontrarás',
  'verás',
];

/** Imperatives that read as a third person mid-sentence ("Quern envía", "lo que nos escribe"), so
 * they count as tú only where a sentence starts. */
const TU_IMPERATIVES = [
  'revisa',
  'vuelve',
  'escribe',
  'confirma',
  'copia',
  'añade',
  'guarda',
  'indica',
  'abre',
  'inicia',
  'elimina',
  'cambia',
  'escanea',
  'completa',
  'continúa',
  'usa',
  'deja',
  'envía',
  'genera',
];

const anyWord = new RegExp(`(?<!\\p{L})(${TU_WORDS.join('|')})(?!\\p{L})`, 'iu');
// A sentence starts at the beginning of the text, after . : ! and a space, or after "Por favor,"; not
// after ¿ (a question such as "¿Usa WooCommerce?" is usted).
const sentenceStart = new RegExp(`(?:^|[.:!]\\s+|por favor,\\s+)(${TU_IMPERATIVES.join('|')})(?!\\p{L})`, 'iu');

/** Every text leaf as "namespace:path" -> text. */
function leaves(value: unknown, path: string): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => leaves(item, path.endsWith(':') ? `${path}${key}` : `${path}.${key}`));
}

const spanish = Object.entries(files).flatMap(([file, resource]) => leaves(resource, `${/([^/]+)\.json$/.exec(file)?.[1]}:`));

/** The tú word a text uses, if any. */
const tuMarker = (text: string): string | undefined => anyWord.exec(text)?.[1] ?? sentenceStart.exec(text)?.[1];

describe('Spanish form of address', () => {
  it('given the Spanish resources, when listed, then there are texts to check', () => {
    expect(spanish.length).toBeGreaterThan(100);
  });

  it('given every Spanish text, when scanned, then none addresses the reader as tú', () => {
    const offending = spanish.flatMap(([key, text]) => {
      const marker = tuMarker(text);
      return marker ? [`${key} (${marker}): ${text}`] : [];
    });
    expect(offending).toEqual([]);
  });

  it.each([
    ['Inténtalo de nuevo.', 'Inténtalo'],
    ['Revisa tu bandeja de entrada.', 'tu'],
    ['No puedes suscribirte.', 'puedes'],
    ['Te responderemos pronto.', 'Te'],
    ['Enviado. Vuelve a la tienda.', 'Vuelve'],
    ['Por favor, genera una.', 'genera'],
  ])('given the tú text %j, when scanned, then %j is reported', (text, marker) => {
    expect(tuMarker(text)).toBe(marker);
  });

  it.each([
    'Inténtelo de nuevo.',
    'Estos Términos del servicio regulan el uso de Quern.',
    'Ha alcanzado el límite de 16 endpoints.',
    'Mensajes: lo que nos escribe a través del formulario.',
    'Quern envía por POST eventos firmados.',
    '¿Usa WooCommerce? Vea la guía del plugin',
    'La página que busca no existe.',
    'Le responderemos pronto.',
  ])('given the usted text %j, when scanned, then nothing is reported', (text) => {
    expect(tuMarker(text)).toBeUndefined();
  });
});
