/**
 * Makes the demo's e-learning packages (issue 31, decision 0050), reproducibly: the same bytes on
 * every run and machine (files in a fixed order, one fixed date, fflate's deflate at level 9).
 *   content/demo/packages/*.zip                       SCORM 1.2, SCORM 2004 4th edition and cmi5
 *                                                     quizzes, one of each per tenant language, and
 *                                                     a SCORM 2004 course of three SCOs per language
 *                                                     (packages/course.ts, issue 39)
 *   e2e/fixtures/package-tenant/packages/hostile-scorm12.zip
 *                                                     a package that tries to reach the learner's
 *                                                     token (browser journeys only, never the demo)
 * The pages and their runtimes are in content/tools/packages/assets, the texts in quizzes.ts.
 *
 * Run: npx tsx content/tools/make-packages.ts          (writes the zips)
 *      npx tsx content/tools/make-packages.ts --check  (exit 1 when a zip is not what this makes)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { cmi5CourseStructure, scorm12Manifest, scorm2004Manifest } from './packages/manifests';
import { MASTERY, QUIZZES, UI, type Quiz } from './packages/quizzes';
import { COURSES, courseManifest, type CourseTexts } from './packages/course';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ASSETS = path.join(import.meta.dirname, 'packages/assets');
const DEMO_OUT = path.join(ROOT, 'content/demo/packages');
const E2E_OUT = path.join(ROOT, 'e2e/fixtures/package-tenant/packages');

/**
 * One date for every entry. Zip dates are local-time fields: a local-time Date gives the same
 * fields, hence the same bytes, in every time zone.
 */
const FIXED_DATE = new Date(2026, 0, 1, 0, 0, 0);

const asset = (name: string) => readFileSync(path.join(ASSETS, name), 'utf8');

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Entries sorted by name, each with the fixed date: the archive depends on its content only. */
export function deterministicZip(files: Record<string, string>): Uint8Array {
  const entries: Zippable = {};
  for (const name of Object.keys(files).sort())
    entries[name] = [strToU8(files[name] ?? ''), { mtime: FIXED_DATE, level: 9 }];
  return zipSync(entries);
}

function page(lang: string, title: string, body: string, scripts: string[]): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="style.css">
</head>
<body>
${body}
${scripts.map((s) => `<script src="${s}"></script>`).join('\n')}
</body>
</html>
`;
}

function quizFiles(quiz: Quiz): Record<string, string> {
  const data = {
    lang: quiz.lang,
    title: quiz.title,
    mastery: MASTERY,
    ui: UI[quiz.lang],
    questions: quiz.questions,
  };
  const scorm = quiz.kind !== 'cmi5';
  const content: Record<string, string> = {
    'index.html': page(
      quiz.lang,
      quiz.title,
      '<p id="notice" class="notice" role="status" hidden></p>\n<main id="quiz"></main>',
      ['quiz-data.js', ...(scorm ? ['scorm-find-api.js'] : []), 'runtime.js', 'quiz.js'],
    ),
    'style.css': asset('style.css'),
    'quiz-data.js': `window.PARCOURS_QUIZ = ${JSON.stringify(data, null, 2)};\n`,
    'runtime.js': asset(`${quiz.kind}.js`),
    'quiz.js': asset('quiz.js'),
  };
  if (scorm) content['scorm-find-api.js'] = asset('scorm-find-api.js');
  if (quiz.kind === 'cmi5' && quiz.checklist) {
    content['checklist.html'] = page(
      quiz.lang,
      quiz.checklist.title,
      '<p id="notice" class="notice" role="status" hidden></p>\n<main id="checklist"></main>',
      ['checklist-data.js', 'runtime.js', 'checklist.js'],
    );
    content['checklist-data.js'] =
      `window.PARCOURS_CHECKLIST = ${JSON.stringify(quiz.checklist, null, 2)};\n`;
    content['checklist.js'] = asset('checklist.js');
  }
  const listed = Object.keys(content).sort();
  if (quiz.kind === 'scorm12') content['imsmanifest.xml'] = scorm12Manifest(quiz, listed);
  else if (quiz.kind === 'scorm2004') content['imsmanifest.xml'] = scorm2004Manifest(quiz, listed);
  else content['cmi5.xml'] = cmi5CourseStructure(quiz);
  return content;
}

/** A course: two reading SCOs and the language's SCORM 2004 quiz as its third SCO. */
function courseFiles(course: CourseTexts): Record<string, string> {
  const quiz = QUIZZES.find((q) => q.file === course.quizFile);
  if (!quiz) throw new Error(`${course.file}: no quiz ${course.quizFile}`);
  const files: Record<string, string> = {
    'shared/style.css': asset('style.css'),
    'shared/scorm-find-api.js': asset('scorm-find-api.js'),
    'shared/lesson.js': asset('lesson2004.js'),
  };
  course.lessons.forEach((lesson, i) => {
    const body = `<p id="notice" class="notice" role="status" hidden>${escapeHtml(course.noLms)}</p>
<main>
<h1>${escapeHtml(lesson.title)}</h1>
${lesson.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</main>`;
    files[`lesson-${i + 1}/index.html`] = page(course.lang, lesson.title, body, [
      '../shared/scorm-find-api.js',
      '../shared/lesson.js',
    ]).replace('href="style.css"', 'href="../shared/style.css"');
  });
  for (const [name, data] of Object.entries(quizFiles(quiz)))
    if (name !== 'imsmanifest.xml') files[`quiz/${name}`] = data;
  files['imsmanifest.xml'] = courseManifest(course, quiz, Object.keys(files).sort());
  return files;
}

function hostileFiles(): Record<string, string> {
  const content: Record<string, string> = {
    'index.html': page(
      'en',
      'Probe',
      '<h1>Probe</h1>\n<p id="status" role="status">Probing…</p>\n<pre id="report"></pre>',
      ['scorm-find-api.js', 'hostile.js'],
    ),
    'style.css': asset('style.css'),
    'scorm-find-api.js': asset('scorm-find-api.js'),
    'hostile.js': asset('hostile.js'),
  };
  content['imsmanifest.xml'] = scorm12Manifest(
    { id: 'parcours-e2e-hostile', title: 'Probe' },
    Object.keys(content).sort(),
  );
  return content;
}

function main(): number {
  const check = process.argv.includes('--check');
  const outputs: { file: string; bytes: Uint8Array }[] = [
    ...QUIZZES.map((quiz) => ({
      file: path.join(DEMO_OUT, quiz.file),
      bytes: deterministicZip(quizFiles(quiz)),
    })),
    ...COURSES.map((course) => ({
      file: path.join(DEMO_OUT, course.file),
      bytes: deterministicZip(courseFiles(course)),
    })),
    { file: path.join(E2E_OUT, 'hostile-scorm12.zip'), bytes: deterministicZip(hostileFiles()) },
  ];
  let stale = 0;
  for (const { file, bytes } of outputs) {
    const name = path.relative(ROOT, file);
    if (check) {
      const same = existsSync(file) && Buffer.compare(readFileSync(file), Buffer.from(bytes)) === 0;
      if (!same) {
        console.error(`${name}: not what content/tools/make-packages.ts makes; run it again`);
        stale += 1;
      }
      continue;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    console.log(`${name}  ${bytes.length} bytes`);
  }
  return stale === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename))
  process.exit(main());
