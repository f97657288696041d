/**
 * Generates the demo's short evacuation videos (WebM, VP8, 640×360, about 12.5 s, one per tenant):
 * the four steps of an evacuation appear one by one, drawn on a canvas and recorded by Chromium's
 * MediaRecorder (Debian's /usr/bin/chromium through Playwright). MediaRecorder writes no duration,
 * so the browser could neither show nor seek it: `withDuration` writes it into the WebM header.
 * The row that shows the video repeats its text (content/demo/tenants/<alias>/courses/…).
 *
 * Run: npx tsx content/tools/make-video.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright';

const OUT = path.resolve(import.meta.dirname, '../demo/media');

const VIDEOS = [
  {
    file: 'evacuation-fr.webm',
    title: 'Évacuer en cas d’incendie',
    steps: [
      '1. Donner l’alerte : 18 ou 112',
      '2. Fermer portes et fenêtres derrière soi',
      '3. Suivre le balisage vert, sans ascenseur',
      '4. Rejoindre le point de rassemblement',
    ],
  },
  {
    file: 'evacuation-en.webm',
    title: 'Evacuating in a fire',
    steps: [
      '1. Raise the alarm: call 112',
      '2. Close doors and windows behind you',
      '3. Follow the green signs, no lifts',
      '4. Go to the assembly point',
    ],
  },
];

/** Runs in the page: draws the steps one every 2.5 s and returns the recording, base64. */
async function record(video: { title: string; steps: string[] }): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 360;
  document.body.append(canvas);
  const g = canvas.getContext('2d')!;
  const recorder = new MediaRecorder(canvas.captureStream(15), {
    mimeType: 'video/webm;codecs=vp8',
    videoBitsPerSecond: 250_000,
  });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  const stopped = new Promise((resolve) => (recorder.onstop = resolve));
  recorder.start(500);
  const start = performance.now();
  const total = 2500 + video.steps.length * 2500;
  await new Promise<void>((resolve) => {
    const draw = () => {
      const t = performance.now() - start;
      g.fillStyle = '#7a1f12';
      g.fillRect(0, 0, 640, 360);
      g.fillStyle = '#1b7f3a';
      g.fillRect(500, 20, 120, 60);
      g.fillStyle = '#fff';
      g.font = 'bold 22px DejaVu Sans';
      g.fillText('EXIT →', 515, 58);
      g.font = 'bold 30px DejaVu Sans';
      g.fillText(video.title, 30, 60);
      const shown = Math.min(video.steps.length, Math.floor(t / 2500));
      g.font = '24px DejaVu Sans';
      video.steps.slice(0, shown).forEach((step, i) => {
        g.fillStyle = i === shown - 1 ? '#ffd54a' : '#fff';
        g.fillText(step, 30, 130 + i * 50);
      });
      g.fillStyle = '#ffd54a';
      g.fillRect(0, 350, Math.min(1, t / total) * 640, 10);
      if (t < total) requestAnimationFrame(draw);
      else resolve();
    };
    draw();
  });
  recorder.stop();
  await stopped;
  const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** An EBML variable-size integer at `at`: its value and its length in bytes. */
function vint(b: Buffer, at: number): { value: number; length: number } {
  let length = 1;
  let mask = 0x80;
  while (!(b[at]! & mask)) {
    mask >>= 1;
    length++;
  }
  let value = b[at]! & (mask - 1);
  for (let k = 1; k < length; k++) value = value * 256 + b[at + k]!;
  return { value, length };
}

/** The time (ms) of the last frame: cluster time plus the block's relative time, over every block. */
function lastFrameMs(b: Buffer): number {
  let last = 0;
  for (let at = b.indexOf('1f43b675', 0, 'hex'); at >= 0; at = b.indexOf('1f43b675', at + 4, 'hex')) {
    let p = at + 4;
    p += vint(b, p).length; // cluster size (unknown-size in MediaRecorder output)
    if (b[p] !== 0xe7) continue; // cluster timecode first
    const size = vint(b, p + 1);
    const clusterTime = b.readUIntBE(p + 1 + size.length, size.value);
    p += 1 + size.length + size.value;
    while (b[p] === 0xa3 || b[p] === 0xa0) {
      const element = vint(b, p + 1);
      const body = p + 1 + element.length;
      // A BlockGroup (0xa0) holds its Block (0xa1); a SimpleBlock (0xa3) is one.
      const block = b[p] === 0xa0 ? body + 1 + vint(b, body + 1).length : body;
      const track = vint(b, block);
      last = Math.max(last, clusterTime + b.readInt16BE(block + track.length));
      p = body + element.value;
    }
  }
  return last;
}

/** Writes a Duration element (float, ms at the default 1 ms timecode scale) into the Segment Info. */
export function withDuration(webm: Buffer, frameMs = 67): Buffer {
  const info = webm.indexOf('1549a966', 0, 'hex');
  if (info < 0) throw new Error('no Segment Info in the recording');
  const size = vint(webm, info + 4);
  const body = info + 4 + size.length;
  const duration = Buffer.alloc(11);
  duration.set([0x44, 0x89, 0x88]);
  duration.writeDoubleBE(lastFrameMs(webm) + frameMs, 3);
  const newSize = Buffer.alloc(size.length);
  newSize.writeUIntBE(size.value + duration.length, 0, size.length);
  newSize[0] = newSize[0]! | (0x80 >> (size.length - 1));
  return Buffer.concat([
    webm.subarray(0, info + 4),
    newSize,
    webm.subarray(body, body + size.value),
    duration,
    webm.subarray(body + size.value),
  ]);
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
try {
  for (const video of VIDEOS) {
    const page = await browser.newPage();
    // tsx keeps function names with a `__name` helper, which the page does not have.
    await page.evaluate('globalThis.__name = (f) => f');
    const base64 = await page.evaluate(record, { title: video.title, steps: video.steps });
    const bytes = withDuration(Buffer.from(base64, 'base64'));
    writeFileSync(path.join(OUT, video.file), bytes);
    console.log(`${video.file}: ${bytes.length} bytes`);
    await page.close();
  }
} finally {
  await browser.close();
}
