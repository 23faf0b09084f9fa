/**
 * Draws the point of sale's app icons (ADR 085) with pngjs, already a dev dependency: a white
 * ring on Quern's blue, plain and maskable (the maskable one keeps the ring inside the central
 * 80 % that every launcher's mask leaves visible). Run once, `node scripts/pos-icons.mjs`; the
 * PNGs are committed in web/public.
 */
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

const BLUE = [0x0b, 0x5c, 0xad];
const WHITE = [0xff, 0xff, 0xff];

function icon(size, { maskable }) {
  const png = new PNG({ width: size, height: size });
  const centre = size / 2;
  // A plain icon is a rounded square; a maskable one fills the canvas and shrinks its ring.
  const corner = maskable ? 0 : size * 0.18;
  const outer = size * (maskable ? 0.26 : 0.32);
  const inner = outer * 0.62;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const index = (y * size + x) * 4;
      const dx = Math.max(corner - x, x - (size - 1 - corner), 0);
      const dy = Math.max(corner - y, y - (size - 1 - corner), 0);
      const inside = corner === 0 || Math.hypot(dx, dy) <= corner;
      const r = Math.hypot(x + 0.5 - centre, y + 0.5 - centre);
      // The tail of the Q: a short bar from the ring towards the lower right.
      const tail = Math.abs(x - y) < size * 0.05 && x > centre + inner * 0.5 && x < centre + outer * 1.05;
      const colour = (r <= outer && r >= inner) || tail ? WHITE : BLUE;
      png.data[index] = colour[0];
      png.data[index + 1] = colour[1];
      png.data[index + 2] = colour[2];
      png.data[index + 3] = inside ? 255 : 0;
    }
  }
  return PNG.sync.write(png);
}

const out = new URL('../web/public/', import.meta.url);
writeFileSync(new URL('pos-icon-192.png', out), icon(192, { maskable: false }));
writeFileSync(new URL('pos-icon-512.png', out), icon(512, { maskable: false }));
writeFileSync(new URL('pos-icon-maskable-512.png', out), icon(512, { maskable: true }));
