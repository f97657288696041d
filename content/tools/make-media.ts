/**
 * Generates the demo media under content/demo/media from code, so every binary in the repository
 * can be rebuilt and reviewed: PNG diagrams (drawn with a tiny rasteriser and written with
 * node:zlib) and small PDFs (written by hand, with a correct cross-reference table).
 *
 * Run: npx tsx content/tools/make-media.ts
 *
 * No audio: nothing on these machines encodes MP3 and a silent file would teach nothing, so the
 * demo has no sound file (see docs/content-format.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { SPLASH_SIZES } from '../../packages/domain/src/entities';

const OUT = path.resolve(import.meta.dirname, '../demo/media');

type Rgb = readonly [number, number, number];

class Canvas {
  readonly px: Uint8Array;
  constructor(
    readonly w: number,
    readonly h: number,
    bg: Rgb,
  ) {
    this.px = new Uint8Array(w * h * 3);
    this.rect(0, 0, w, h, bg);
  }

  set(x: number, y: number, c: Rgb): void {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= this.w || y >= this.h) return;
    const i = (y * this.w + x) * 3;
    this.px[i] = c[0];
    this.px[i + 1] = c[1];
    this.px[i + 2] = c[2];
  }

  rect(x: number, y: number, w: number, h: number, c: Rgb): void {
    for (let j = Math.max(0, Math.floor(y)); j < Math.min(this.h, y + h); j++)
      for (let i = Math.max(0, Math.floor(x)); i < Math.min(this.w, x + w); i++) this.set(i, j, c);
  }

  frame(x: number, y: number, w: number, h: number, t: number, c: Rgb): void {
    this.rect(x, y, w, t, c);
    this.rect(x, y + h - t, w, t, c);
    this.rect(x, y, t, h, c);
    this.rect(x + w - t, y, t, h, c);
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, c: Rgb): void {
    for (let y = Math.floor(cy - ry); y <= cy + ry; y++)
      for (let x = Math.floor(cx - rx); x <= cx + rx; x++)
        if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1) this.set(x, y, c);
  }

  /** Pie sector from angle a0 to a1 (radians, clockwise from 12 o'clock). */
  sector(cx: number, cy: number, r: number, a0: number, a1: number, c: Rgb): void {
    for (let y = Math.floor(cy - r); y <= cy + r; y++)
      for (let x = Math.floor(cx - r); x <= cx + r; x++) {
        const dx = x - cx;
        const dy = y - cy;
        if (dx * dx + dy * dy > r * r) continue;
        let a = Math.atan2(dx, -dy);
        if (a < 0) a += 2 * Math.PI;
        if (a >= a0 && a < a1) this.set(x, y, c);
      }
  }

  line(x0: number, y0: number, x1: number, y1: number, t: number, c: Rgb): void {
    const n = Math.ceil(Math.hypot(x1 - x0, y1 - y0));
    for (let k = 0; k <= n; k++) {
      const x = x0 + ((x1 - x0) * k) / Math.max(n, 1);
      const y = y0 + ((y1 - y0) * k) / Math.max(n, 1);
      this.ellipse(x, y, t / 2, t / 2, c);
    }
  }

  polygon(pts: [number, number][], c: Rgb): void {
    const ys = pts.map((p) => p[1]);
    for (let y = Math.floor(Math.min(...ys)); y <= Math.max(...ys); y++) {
      const xs: number[] = [];
      for (let i = 0; i < pts.length; i++) {
        const [ax, ay] = pts[i]!;
        const [bx, by] = pts[(i + 1) % pts.length]!;
        if (ay <= y !== by <= y) xs.push(ax + ((y - ay) * (bx - ax)) / (by - ay));
      }
      xs.sort((a, b) => a - b);
      for (let k = 0; k + 1 < xs.length; k += 2)
        for (let x = Math.ceil(xs[k]!); x <= xs[k + 1]!; x++) this.set(x, y, c);
    }
  }

  /** Text in the 5x7 font below, `s` pixels per font dot; returns the width drawn. */
  text(x: number, y: number, str: string, s: number, c: Rgb): number {
    let cx = x;
    for (const ch of str.toUpperCase()) {
      const g = FONT[ch] ?? FONT['?']!;
      g.forEach((row, j) => {
        for (let i = 0; i < 5; i++) if (row[i] === '#') this.rect(cx + i * s, y + j * s, s, s, c);
      });
      cx += 6 * s;
    }
    return cx - x - s;
  }

  textCentered(cx: number, y: number, str: string, s: number, c: Rgb): void {
    this.text(cx - (str.length * 6 * s - s) / 2, y, str, s, c);
  }

  png(): Buffer {
    const raw = Buffer.alloc((this.w * 3 + 1) * this.h);
    for (let y = 0; y < this.h; y++) {
      raw[y * (this.w * 3 + 1)] = 0; // filter: none
      Buffer.from(this.px.buffer, y * this.w * 3, this.w * 3).copy(raw, y * (this.w * 3 + 1) + 1);
    }
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(this.w, 0);
    ihdr.writeUInt32BE(this.h, 4);
    ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit truecolour, no interlace
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw, { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

// prettier-ignore
const FONT: Record<string, string[]> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  G: ['.###.', '#...#', '#....', '#.###', '#...#', '#...#', '.###.'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  J: ['..###', '...#.', '...#.', '...#.', '...#.', '#..#.', '.##..'],
  K: ['#...#', '#..#.', '#.#..', '##...', '#.#..', '#..#.', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  N: ['#...#', '#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  Q: ['.###.', '#...#', '#...#', '#...#', '#.#.#', '#..#.', '.##.#'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  V: ['#...#', '#...#', '#...#', '#...#', '#...#', '.#.#.', '..#..'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '#.#.#', '.#.#.'],
  X: ['#...#', '#...#', '.#.#.', '..#..', '.#.#.', '#...#', '#...#'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  Z: ['#####', '....#', '...#.', '..#..', '.#...', '#....', '#####'],
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '1': ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '3': ['####.', '....#', '....#', '.###.', '....#', '....#', '####.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '5': ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  '6': ['..##.', '.#...', '#....', '####.', '#...#', '#...#', '.###.'],
  '7': ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  '8': ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  '9': ['.###.', '#...#', '#...#', '.####', '....#', '...#.', '.##..'],
  '/': ['....#', '....#', '...#.', '..#..', '.#...', '#....', '#....'],
  '=': ['.....', '.....', '#####', '.....', '#####', '.....', '.....'],
  '%': ['##..#', '##..#', '...#.', '..#..', '.#...', '#..##', '#..##'],
  '-': ['.....', '.....', '.....', '#####', '.....', '.....', '.....'],
  '+': ['.....', '..#..', '..#..', '#####', '..#..', '..#..', '.....'],
  '.': ['.....', '.....', '.....', '.....', '.....', '.##..', '.##..'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
  '?': ['.###.', '#...#', '....#', '...#.', '..#..', '.....', '..#..'],
};

const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [33, 37, 41];
const GREY: Rgb = [206, 212, 218];
const BLUE: Rgb = [37, 99, 235];
const RED: Rgb = [220, 38, 38];
const GREEN: Rgb = [22, 163, 74];
const YELLOW: Rgb = [250, 204, 21];
const BROWN: Rgb = [161, 98, 7];

/** Four discs of eight slices each, shading 2/8, 4/8, 6/8 and 3/8 (zones in the course files). */
function fractionPies(): Buffer {
  const c = new Canvas(808, 300, WHITE);
  const shaded = [2, 4, 6, 3];
  const labels = ['A', 'B', 'C', 'D'];
  shaded.forEach((n, k) => {
    const cx = 101 + k * 202;
    const cy = 130;
    const r = 85;
    c.ellipse(cx, cy, r + 3, r + 3, INK);
    for (let s = 0; s < 8; s++)
      c.sector(cx, cy, r, (s * Math.PI) / 4, ((s + 1) * Math.PI) / 4, s < n ? BLUE : WHITE);
    for (let s = 0; s < 8; s++) {
      const a = (s * Math.PI) / 4;
      c.line(cx, cy, cx + r * Math.sin(a), cy - r * Math.cos(a), 2, INK);
    }
    c.textCentered(cx, 240, labels[k]!, 6, INK);
  });
  return c.png();
}

/** A bar cut into four equal parts, three shaded: the picture of 3/4. */
function fractionBar(): Buffer {
  const c = new Canvas(808, 260, WHITE);
  for (let k = 0; k < 4; k++) {
    c.rect(104 + k * 150, 40, 150, 90, k < 3 ? BLUE : WHITE);
    c.frame(104 + k * 150, 40, 151, 90, 3, INK);
  }
  // 3 over 4, then "= 75%" beside it, all inside the 808-px width.
  c.textCentered(330, 160, '3', 7, BLUE);
  c.rect(300, 215, 60, 5, INK);
  c.textCentered(330, 225, '4', 4, INK);
  c.text(400, 190, '= 75%', 5, INK);
  return c.png();
}

/**
 * A workshop seen from the front. Hazards: a puddle on the walkway, a cable across it, boxes
 * piled on the edge of a high shelf. Safe items: extinguisher, first-aid kit, exit sign.
 * Coordinates are repeated as zones in the safety courses (viewBox 0 0 808 500).
 */
function workshop(): Buffer {
  const c = new Canvas(808, 500, [241, 245, 249]);
  c.rect(0, 330, 808, 170, [203, 213, 225]); // floor
  c.rect(0, 326, 808, 4, [100, 116, 139]);
  // walkway with yellow edges
  c.polygon(
    [
      [300, 330],
      [508, 330],
      [640, 500],
      [170, 500],
    ],
    [226, 232, 240],
  );
  c.line(300, 330, 170, 500, 6, YELLOW);
  c.line(508, 330, 640, 500, 6, YELLOW);
  // shelf (left) with boxes overhanging its top edge
  c.rect(40, 120, 200, 8, BROWN);
  c.rect(40, 210, 200, 8, BROWN);
  c.rect(40, 300, 200, 8, BROWN);
  c.rect(40, 120, 8, 210, BROWN);
  c.rect(232, 120, 8, 210, BROWN);
  c.rect(60, 170, 60, 40, [217, 160, 102]);
  c.rect(130, 250, 70, 50, [217, 160, 102]);
  c.rect(170, 82, 70, 38, [217, 160, 102]); // top box, half outside the shelf
  c.rect(190, 46, 60, 36, [200, 140, 80]);
  c.rect(215, 16, 55, 30, [217, 160, 102]);
  c.frame(170, 82, 70, 38, 2, BROWN);
  c.frame(190, 46, 60, 36, 2, BROWN);
  c.frame(215, 16, 55, 30, 2, BROWN);
  // puddle on the walkway
  c.ellipse(430, 440, 70, 22, [96, 165, 250]);
  c.ellipse(410, 436, 30, 8, [191, 219, 254]);
  // cable across the walkway, from a socket on the right wall
  c.rect(690, 300, 20, 26, WHITE);
  c.frame(690, 300, 20, 26, 2, INK);
  c.line(700, 326, 650, 372, 5, INK);
  for (let x = 650; x >= 220; x -= 2) c.ellipse(x, 380 + 10 * Math.sin(x / 25), 2.5, 2.5, INK);
  c.line(220, 380, 200, 360, 5, INK);
  c.rect(186, 340, 28, 20, [71, 85, 105]); // machine plug
  // fire extinguisher on the wall
  c.rect(560, 210, 34, 90, RED);
  c.rect(568, 196, 18, 14, INK);
  c.line(586, 203, 604, 230, 4, INK);
  // first-aid kit
  c.rect(620, 140, 80, 60, WHITE);
  c.frame(620, 140, 80, 60, 3, GREEN);
  c.rect(652, 150, 16, 40, GREEN);
  c.rect(640, 162, 40, 16, GREEN);
  // exit sign over the door
  c.rect(350, 40, 130, 40, GREEN);
  c.text(368, 50, 'EXIT', 4, WHITE);
  c.rect(360, 100, 110, 226, [148, 163, 184]);
  c.frame(360, 100, 110, 226, 4, [71, 85, 105]);
  return c.png();
}

/** A company organisation chart (French labels, used by the French business-culture course). */
function orgChart(): Buffer {
  const c = new Canvas(808, 340, WHITE);
  const box = (cx: number, y: number, w: number, label: string, fill: Rgb, scale: number): void => {
    c.rect(cx - w / 2, y, w, 56, fill);
    c.frame(cx - w / 2, y, w, 56, 3, INK);
    c.textCentered(cx, y + 28 - 3.5 * scale, label, scale, INK);
  };
  box(404, 30, 380, 'DIRECTION GENERALE', [191, 219, 254], 3);
  c.line(404, 86, 404, 140, 4, INK);
  c.line(101, 140, 707, 140, 4, INK);
  const depts = ['PRODUCTION', 'COMMERCIAL', 'RH', 'FINANCE'];
  depts.forEach((d, k) => {
    const cx = 101 + k * 202;
    c.line(cx, 140, cx, 180, 4, INK);
    box(cx, 180, 186, d, [220, 252, 231], 2);
    c.line(cx, 236, cx, 270, 3, GREY);
    c.rect(cx - 60, 270, 120, 36, [241, 245, 249]);
    c.frame(cx - 60, 270, 120, 36, 2, GREY);
  });
  return c.png();
}

/**
 * The tenant's mark: a disc with a "go forward" arrow, drawn large (256 px) so it stays crisp
 * when the header shows it at 40 px. No lettering: the header prints the tenant's name beside it,
 * in real text that screen readers and translations handle.
 */
function logo(colour: Rgb): Buffer {
  const c = new Canvas(256, 256, WHITE);
  c.ellipse(128, 128, 124, 124, colour);
  c.polygon(
    [
      [96, 68],
      [188, 128],
      [96, 188],
    ],
    WHITE,
  );
  return c.png();
}

function favicon(colour: Rgb): Buffer {
  const c = new Canvas(32, 32, colour);
  c.polygon(
    [
      [10, 7],
      [26, 16],
      [10, 25],
    ],
    WHITE,
  );
  return c.png();
}

/**
 * Home-screen icon (SPEC §3 touch icons 192 and 512): full-bleed colour with the logo's arrow kept
 * inside the central 60 %, so launchers that crop icons to a circle or squircle ("maskable") keep it.
 */
function touchIcon(colour: Rgb, size: number): Buffer {
  const c = new Canvas(size, size, colour);
  const s = size / 256;
  c.polygon(
    [
      [100 * s, 80 * s],
      [180 * s, 128 * s],
      [100 * s, 176 * s],
    ],
    WHITE,
  );
  return c.png();
}

/** iOS launch screen (SPEC §3 splash sizes): the tenant's page colour with its mark in the middle. */
function splash(size: string, background: Rgb, colour: Rgb): Buffer {
  const [w, h] = size.split('x').map(Number) as [number, number];
  const c = new Canvas(w, h, background);
  const r = Math.round(Math.min(w, h) * 0.14);
  const [cx, cy] = [w / 2, h / 2];
  c.ellipse(cx, cy, r, r, colour);
  c.polygon(
    [
      [cx - r * 0.25, cy - r * 0.47],
      [cx + r * 0.47, cy],
      [cx - r * 0.25, cy + r * 0.47],
    ],
    WHITE,
  );
  return c.png();
}

/** Each demo tenant's colours (its tenant.yaml): primary, then page background. */
const TENANT_COLOURS: Record<string, { primary: Rgb; background: Rgb }> = {
  fr: { primary: [29, 78, 216], background: [248, 250, 252] },
  en: { primary: [15, 118, 110], background: [240, 253, 250] },
};
function homeScreenMedia(): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const [alias, { primary, background }] of Object.entries(TENANT_COLOURS)) {
    for (const size of [192, 512]) out[`touch-icon-${alias}-${size}.png`] = touchIcon(primary, size);
    for (const size of SPLASH_SIZES) out[`splash-${alias}-${size}.png`] = splash(size, background, primary);
  }
  return out;
}

/** A one-page PDF of text lines (Helvetica, WinAnsi so French accents print). */
function pdf(title: string, lines: string[]): Buffer {
  const esc = (s: string): string => s.replace(/[\\()]/g, (m) => `\\${m}`);
  const body = [
    'BT /F1 20 Tf 56 780 Td (' + esc(title) + ') Tj ET',
    ...lines.map((l, i) => `BT /F1 12 Tf 56 ${740 - i * 22} Td (${esc(l)}) Tj ET`),
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

mkdirSync(OUT, { recursive: true });
const files: Record<string, Buffer> = {
  'fractions-pies.png': fractionPies(),
  'fraction-bar.png': fractionBar(),
  'workshop.png': workshop(),
  'org-chart-fr.png': orgChart(),
  'logo-fr.png': logo([29, 78, 216]),
  'logo-en.png': logo([15, 118, 110]),
  'favicon-fr.png': favicon([29, 78, 216]),
  'favicon-en.png': favicon([15, 118, 110]),
  ...homeScreenMedia(),
  'consignes-incendie.pdf': pdf('Consignes en cas d\u2019incendie', [
    '1. Donner l\u2019alerte : d\u00e9clencher l\u2019alarme, appeler le 18 ou le 112.',
    '2. Attaquer le feu avec l\u2019extincteur adapt\u00e9 si vous \u00eates form\u00e9 et sans risque.',
    '   - feux \u00e9lectriques : extincteur CO2 (dioxyde de carbone) ;',
    '   - feux de solides (bois, papier, tissu) : eau pulv\u00e9ris\u00e9e ou poudre ABC.',
    '3. \u00c9vacuer : fermer portes et fen\u00eatres, ne jamais prendre l\u2019ascenseur.',
    '4. Se rendre au point de rassemblement et signaler toute personne manquante.',
    '5. Ne jamais revenir en arri\u00e8re sans l\u2019accord des secours.',
  ]),
  'fire-safety-checklist.pdf': pdf('Fire safety: what to do', [
    '1. Raise the alarm: press the nearest call point, call 112 (or your local number).',
    '2. Fight the fire only if trained, and only if it is small and your exit is clear.',
    '   - electrical fires: CO2 (carbon dioxide) extinguisher;',
    '   - solids (wood, paper, fabric): water spray or ABC powder.',
    '3. Evacuate: close doors behind you, never use the lift.',
    '4. Go to the assembly point and report anyone missing.',
    '5. Never go back inside until the emergency services allow it.',
  ]),
};
for (const [name, data] of Object.entries(files)) {
  writeFileSync(path.join(OUT, name), data);
  console.log(`${name}\t${data.length} bytes`);
}
