/**
 * Generates the demo's multi-page fire-safety guides (PDF, one per tenant) with pdf-lib, so the
 * PDF viewer has pages to turn and real text for its text layer. The spoken reminders
 * (consignes-audio.mp3, fire-reminder.mp3) were recorded once with espeak-ng and encoded with
 * lame (Debian packages), from the texts in SPOKEN below:
 *   espeak-ng -v fr -s 150 -w fr.wav "<text>" && lame --quiet -m m -b 32 fr.wav consignes-audio.mp3
 *
 * Run: npx tsx content/tools/make-guides.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument, rgb, StandardFonts } from '@cantoo/pdf-lib';

const OUT = path.resolve(import.meta.dirname, '../demo/media');

export const SPOKEN = {
  fr: "Rappel des consignes incendie. Si vous découvrez un feu, donnez l'alerte en appelant le dix-huit ou le cent douze. Fermez les portes derrière vous, n'utilisez pas l'ascenseur, et rejoignez le point de rassemblement.",
  en: 'Fire safety reminder. If you discover a fire, raise the alarm and call the emergency number. Close the doors behind you, do not use the lift, and go to the assembly point.',
};

interface Guide {
  file: string;
  title: string;
  pages: { heading: string; lines: string[] }[];
  footer: (page: number, count: number) => string;
}

const GUIDES: Guide[] = [
  {
    file: 'guide-incendie.pdf',
    title: 'Guide incendie du site',
    footer: (p, n) => `Page ${p} sur ${n}`,
    pages: [
      {
        heading: '1. Donner l’alerte',
        lines: [
          'Vous découvrez un feu : gardez votre calme.',
          'Déclenchez l’alarme du bâtiment (boîtier rouge).',
          'Appelez le 18 ou le 112 : dites qui vous êtes,',
          'où est le feu et ce qui brûle.',
          'Prévenez votre responsable et l’équipier incendie.',
        ],
      },
      {
        heading: '2. Attaquer un début de feu',
        lines: [
          'Seulement si le feu est petit et si vous êtes formé.',
          'Choisissez l’extincteur adapté à la classe de feu.',
          'Visez la base des flammes, à 2 ou 3 mètres.',
          'Gardez toujours une issue dans votre dos.',
          'Si le feu ne baisse pas en 10 secondes : évacuez.',
        ],
      },
      {
        heading: '3. Évacuer',
        lines: [
          'Suivez les guide-files et les serre-files.',
          'Fermez les portes derrière vous, sans les verrouiller.',
          'N’utilisez jamais l’ascenseur.',
          'Dans la fumée, baissez-vous : l’air est plus frais en bas.',
          'Rejoignez le point de rassemblement et faites-vous compter.',
        ],
      },
    ],
  },
  {
    file: 'fire-guide.pdf',
    title: 'Site fire guide',
    footer: (p, n) => `Page ${p} of ${n}`,
    pages: [
      {
        heading: '1. Raise the alarm',
        lines: [
          'You discover a fire: stay calm.',
          'Press the nearest fire alarm call point.',
          'Call the emergency number: say who you are,',
          'where the fire is and what is burning.',
          'Tell your manager and the fire warden.',
        ],
      },
      {
        heading: '2. Tackle a small fire',
        lines: [
          'Only if the fire is small and you are trained.',
          'Pick the extinguisher that matches the class of fire.',
          'Aim at the base of the flames, 2 to 3 metres away.',
          'Always keep an exit behind you.',
          'If the fire does not die down within 10 seconds: leave.',
        ],
      },
      {
        heading: '3. Evacuate',
        lines: [
          'Follow the fire wardens.',
          'Close doors behind you without locking them.',
          'Never use the lift.',
          'In smoke, keep low: the air is cooler near the floor.',
          'Go to the assembly point and get counted.',
        ],
      },
    ],
  },
];

async function makeGuide(guide: Guide): Promise<void> {
  const doc = await PDFDocument.create();
  doc.setTitle(guide.title);
  // Fixed dates: the same input gives the same bytes.
  doc.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  doc.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  guide.pages.forEach((content, i) => {
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 0, y: 772, width: 595, height: 70, color: rgb(0.72, 0.11, 0.11) });
    page.drawText(guide.title, { x: 48, y: 798, size: 22, font: bold, color: rgb(1, 1, 1) });
    page.drawText(content.heading, { x: 48, y: 712, size: 20, font: bold, color: rgb(0.1, 0.1, 0.1) });
    content.lines.forEach((line, j) => {
      page.drawText(line, { x: 48, y: 670 - j * 30, size: 14, font: regular, color: rgb(0.15, 0.15, 0.15) });
    });
    page.drawText(guide.footer(i + 1, guide.pages.length), {
      x: 48,
      y: 40,
      size: 11,
      font: regular,
      color: rgb(0.3, 0.3, 0.3),
    });
  });
  writeFileSync(path.join(OUT, guide.file), await doc.save({ useObjectStreams: false }));
}

for (const guide of GUIDES) await makeGuide(guide);
