/**
 * A QR code as SVG markup, rendered on the server by the `qrcode` library: the two-factor
 * enrollment's otpauth:// URI and the wallet's payment URI (ADR 079). The web app shows it as an
 * image (a data: URL), never as markup in the page.
 */
import QRCode from 'qrcode';

export const qrCodeSvg = (text: string): Promise<string> => QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
