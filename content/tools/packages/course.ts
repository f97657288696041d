/**
 * The demo's SCORM course (issue 39, decision 0063): three SCOs in one SCORM 2004 4th edition
 * package per tenant language — two short reading SCOs, then the phishing quiz — with flow and
 * choice, the quiz alone weighing in the course's result (its measure rolled up, the readings'
 * weight 0). The quiz SCO is the demo quiz of quizzes.ts; the readings' texts are here.
 */
import { MASTERY, type Lang, type Quiz } from './quizzes';

export interface CourseTexts {
  lang: Lang;
  file: string;
  id: string;
  title: string;
  noLms: string;
  lessons: { title: string; paragraphs: string[] }[];
  /** The quiz SCO (by its quiz file). */
  quizFile: string;
}

export const COURSES: CourseTexts[] = [
  {
    lang: 'fr',
    file: 'parcours-hameconnage-scorm2004.zip',
    id: 'parcours-demo-course-phishing-fr',
    title: 'Le hameçonnage, pas à pas',
    noLms: 'Aucune plateforme de formation ne suit ce module.',
    quizFile: 'hameconnage-scorm2004.zip',
    lessons: [
      {
        title: 'Reconnaître un message piège',
        paragraphs: [
          'Un message piège presse : « votre compte sera fermé ce soir ». L’urgence vous empêche de réfléchir.',
          'Regardez l’adresse de l’expéditeur et celle du lien (survolez-le sans cliquer) : une lettre de trop suffit.',
        ],
      },
      {
        title: 'En cas de doute',
        paragraphs: [
          'Ne cliquez pas, ne répondez pas. Rejoignez le service par le chemin habituel (son site, son numéro connu).',
          'Signalez le message à votre service informatique : il protège aussi vos collègues.',
        ],
      },
    ],
  },
  {
    lang: 'en',
    file: 'phishing-course-scorm2004.zip',
    id: 'parcours-demo-course-phishing-en',
    title: 'Phishing, step by step',
    noLms: 'No learning platform is tracking this module.',
    quizFile: 'phishing-scorm2004.zip',
    lessons: [
      {
        title: 'Spotting a trap message',
        paragraphs: [
          'A trap message rushes you: “your account closes tonight”. Urgency keeps you from thinking.',
          'Look at the sender’s address and the link’s (hover, do not click): one extra letter is enough.',
        ],
      },
      {
        title: 'When in doubt',
        paragraphs: [
          'Do not click, do not reply. Reach the service the usual way (its site, its known number).',
          'Report the message to your IT team: it protects your colleagues too.',
        ],
      },
    ],
  },
];

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The course's manifest: three items, flow and choice, the quiz's measure as the course's. */
export function courseManifest(course: CourseTexts, quiz: Quiz, files: string[]): string {
  const lesson = (i: number) => `
      <item identifier="${course.id}-lesson-${i + 1}" identifierref="${course.id}-lesson-${i + 1}-sco">
        <title>${escapeXml(course.lessons[i]?.title ?? '')}</title>
        <imsss:sequencing>
          <imsss:rollupRules rollupObjectiveSatisfied="false" objectiveMeasureWeight="0"/>
        </imsss:sequencing>
      </item>`;
  const list = (prefix: string) =>
    files
      .filter((f) => f.startsWith(prefix))
      .map((f) => `      <file href="${escapeXml(f)}"/>`)
      .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${course.id}" version="1.0"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="${course.id}-org">
    <organization identifier="${course.id}-org">
      <title>${escapeXml(course.title)}</title>${lesson(0)}${lesson(1)}
      <item identifier="${course.id}-quiz" identifierref="${course.id}-quiz-sco">
        <title>${escapeXml(quiz.title)}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="${course.id}-mastery" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${MASTERY}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
      <imsss:sequencing>
        <imsss:controlMode choice="true" flow="true"/>
      </imsss:sequencing>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${course.id}-lesson-1-sco" type="webcontent" adlcp:scormType="sco" href="lesson-1/index.html">
${list('lesson-1/')}
${list('shared/')}
    </resource>
    <resource identifier="${course.id}-lesson-2-sco" type="webcontent" adlcp:scormType="sco" href="lesson-2/index.html">
${list('lesson-2/')}
${list('shared/')}
    </resource>
    <resource identifier="${course.id}-quiz-sco" type="webcontent" adlcp:scormType="sco" href="quiz/index.html">
${list('quiz/')}
    </resource>
  </resources>
</manifest>
`;
}
