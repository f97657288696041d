/**
 * The manifests of the demo packages: SCORM 1.2 and SCORM 2004 4th edition `imsmanifest.xml`
 * (one organisation, one item, one SCO resource listing its files) and cmi5's `cmi5.xml` (one AU
 * with moveOn and masteryScore). Written by hand: a few elements, all escaped.
 */
import { MASTERY, type Quiz } from './quizzes';

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const fileList = (files: string[]) => files.map((f) => `      <file href="${escapeXml(f)}"/>`).join('\n');

export function scorm12Manifest(
  quiz: Pick<Quiz, 'id' | 'title'>,
  files: string[],
  mastery = MASTERY,
): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${quiz.id}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="${quiz.id}-org">
    <organization identifier="${quiz.id}-org">
      <title>${escapeXml(quiz.title)}</title>
      <item identifier="${quiz.id}-item" identifierref="${quiz.id}-sco" isvisible="true">
        <title>${escapeXml(quiz.title)}</title>
        <adlcp:masteryscore>${Math.round(mastery * 100)}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${quiz.id}-sco" type="webcontent" adlcp:scormtype="sco" href="index.html">
${fileList(files)}
    </resource>
  </resources>
</manifest>
`;
}

export function scorm2004Manifest(
  quiz: Pick<Quiz, 'id' | 'title'>,
  files: string[],
  mastery = MASTERY,
): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${quiz.id}" version="1.0"
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
  <organizations default="${quiz.id}-org">
    <organization identifier="${quiz.id}-org">
      <title>${escapeXml(quiz.title)}</title>
      <item identifier="${quiz.id}-item" identifierref="${quiz.id}-sco">
        <title>${escapeXml(quiz.title)}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="${quiz.id}-mastery" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${mastery}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${quiz.id}-sco" type="webcontent" adlcp:scormType="sco" href="index.html">
${fileList(files)}
    </resource>
  </resources>
</manifest>
`;
}

export function cmi5CourseStructure(
  quiz: Pick<Quiz, 'id' | 'title' | 'description' | 'lang' | 'checklist'>,
  mastery = MASTERY,
): string {
  const lang = quiz.lang === 'fr' ? 'fr-FR' : 'en-GB';
  const base = `https://parcours.example/xapi/activities/${quiz.id}`;
  const text = (s: string) => `<langstring lang="${lang}">${escapeXml(s)}</langstring>`;
  // Two AUs in a block (issue 39): the quiz, then the checklist (moveOn Completed).
  if (quiz.checklist)
    return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="${base}">
    <title>${text(quiz.title)}</title>
    <description>${text(quiz.description)}</description>
  </course>
  <block id="${base}/block">
    <title>${text(quiz.title)}</title>
    <description>${text(quiz.description)}</description>
    <au id="${base}/au" moveOn="CompletedAndPassed" masteryScore="${mastery}" launchMethod="AnyWindow">
      <title>${text(quiz.title)}</title>
      <description>${text(quiz.description)}</description>
      <url>index.html</url>
    </au>
    <au id="${base}/checklist" moveOn="Completed" launchMethod="AnyWindow">
      <title>${text(quiz.checklist.title)}</title>
      <description>${text(quiz.checklist.title)}</description>
      <url>checklist.html</url>
    </au>
  </block>
</courseStructure>
`;
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="${base}">
    <title><langstring lang="${lang}">${escapeXml(quiz.title)}</langstring></title>
    <description><langstring lang="${lang}">${escapeXml(quiz.description)}</langstring></description>
  </course>
  <au id="${base}/au" moveOn="CompletedAndPassed" masteryScore="${mastery}" launchMethod="AnyWindow">
    <title><langstring lang="${lang}">${escapeXml(quiz.title)}</langstring></title>
    <description><langstring lang="${lang}">${escapeXml(quiz.description)}</langstring></description>
    <url>index.html</url>
  </au>
</courseStructure>
`;
}
