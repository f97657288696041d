// Writes the generic install icons (public/pwa-192x192.png, pwa-512x512.png) without any image
// tool: the same "P" mark as public/favicon.svg, rasterised by hand. Run once: node scripts/make-icons.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BLUE = [0x1d, 0x4e, 0xd8];
const WHITE = [0xff, 0xff, 0xff];

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

// Maskable icons need the mark inside the central 80 %, so the background fills the square.
function pixel(x, y) {
  // Coordinates in the favicon's 64-unit grid.
  const inStem = x >= 20 && x <= 27 && y >= 14 && y <= 50;
  const dx = x - 34;
  const dy = y - 25;
  const r = Math.hypot(dx, dy);
  const inBowl = (x >= 27 && x <= 34 && y >= 14 && y <= 36) || (x > 34 && r <= 11);
  const inHole = (x >= 27 && x <= 34 && y >= 21 && y <= 29) || (x > 34 && r <= 4 && y >= 21 && y <= 29);
  return (inStem || inBowl) && !(inHole && !inStem) ? WHITE : BLUE;
}

function png(size) {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b] = pixel((x / size) * 64, (y / size) * 64);
      const o = y * (size * 3 + 1) + 1 + x * 3;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

for (const size of [192, 512])
  writeFileSync(new URL(`../public/pwa-${size}x${size}.png`, import.meta.url), png(size));
