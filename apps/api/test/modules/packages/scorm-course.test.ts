import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as scorm12 from 'scorm-again/scorm12';
import type Scorm12Class from 'scorm-again/scorm12';
import * as scorm2004 from 'scorm-again/scorm2004';
import type Scorm2004Class from 'scorm-again/scorm2004';
import { readManifest } from '../../../src/content/packages/manifest';
import { settleOnFinish } from '../../../src/modules/packages/scorm';
import { courseFraction } from '../../../src/modules/packages/scorm-course';
import { sequencingOf } from '../../../src/content/packages/scorm-tree';
import { XMLParser } from 'fast-xml-parser';
import { TestClock } from '../../helpers/player';
import { bridge, launchOf, startPackageWorld, zipOf } from '../../helpers/packages';
import type { Entries, PackageWorld, PageData } from '../../helpers/packages';

const Scorm12API = (scorm12 as unknown as { Scorm12API: typeof Scorm12Class }).Scorm12API;
const Scorm2004API = (scorm2004 as unknown as { Scorm2004API: typeof Scorm2004Class }).Scorm2004API;

/**
 * Issue 39 item 2: SCORM packages with several SCOs. A SCORM 1.2 course like Rustici's "minimum
 * calls" golf example (SCOs that only initialize and finish, in clusters), and a SCORM 2004 course
 * with forced-order sequencing as the golf "forced sequential" example writes it (a collection,
 * global objectives, a precondition that disables the next SCO). Every byte is written here; the
 * browser journeys (e2e/tests/scorm-courses.spec.ts) play the real examples.
 */
const page = (t: string) =>
  `<!doctype html><html lang="en"><head><title>${t}</title></head><body>${t}</body></html>`;

function course12(): Entries {
  return {
    'imsmanifest.xml': `<?xml version="1.0"?>
<manifest identifier="golf12" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>Golf (1.2)</title>
      <item identifier="playing"><title>Playing</title>
        <item identifier="sco-a" identifierref="r-a"><title>Rules</title></item>
        <item identifier="sco-b" identifierref="r-b"><title>Par</title><adlcp:masteryscore>80</adlcp:masteryscore></item>
      </item>
      <item identifier="sco-c" identifierref="r-c" isvisible="true"><title>Fun</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r-a" type="webcontent" adlcp:scormtype="sco" href="a.html"/>
    <resource identifier="r-b" type="webcontent" adlcp:scormtype="sco" href="b.html"/>
    <resource identifier="r-c" type="webcontent" adlcp:scormtype="sco" href="c.html"/>
  </resources>
</manifest>`,
    'a.html': page('A'),
    'b.html': page('B'),
    'c.html': page('C'),
  };
}

function course2004(): Entries {
  const ns = 'com.example.forced';
  const item = (id: string, previous: string | null) => `
      <item identifier="${id}" identifierref="r-${id}"><title>${id}</title>
        <imsss:sequencing IDRef="common">
          ${
            previous
              ? `<imsss:sequencingRules><imsss:preConditionRule>
            <imsss:ruleConditions conditionCombination="any">
              <imsss:ruleCondition referencedObjective="previous" operator="not" condition="satisfied"/>
              <imsss:ruleCondition referencedObjective="previous" operator="not" condition="objectiveStatusKnown"/>
            </imsss:ruleConditions>
            <imsss:ruleAction action="disabled"/>
          </imsss:preConditionRule></imsss:sequencingRules>`
              : ''
          }
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="${id}_satisfied">
              <imsss:mapInfo targetObjectiveID="${ns}.${id}" readSatisfiedStatus="true" writeSatisfiedStatus="true"/>
            </imsss:primaryObjective>
            ${previous ? `<imsss:objective objectiveID="previous"><imsss:mapInfo targetObjectiveID="${ns}.${previous}" readSatisfiedStatus="true" writeSatisfiedStatus="false"/></imsss:objective>` : ''}
          </imsss:objectives>
        </imsss:sequencing>
      </item>`;
  return {
    'imsmanifest.xml': `<?xml version="1.0"?>
<manifest identifier="forced" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 3rd Edition</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org" adlseq:objectivesGlobalToSystem="false">
      <title>Golf (2004, forced order)</title>
      ${item('one', null)}
      ${item('two', 'one')}
      ${item('three', 'two')}
      <imsss:sequencing><imsss:controlMode choice="true" flow="true"/></imsss:sequencing>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r-one" type="webcontent" adlcp:scormType="sco" href="one.html"/>
    <resource identifier="r-two" type="webcontent" adlcp:scormType="sco" href="two.html"/>
    <resource identifier="r-three" type="webcontent" adlcp:scormType="sco" href="three.html"/>
  </resources>
  <imsss:sequencingCollection>
    <imsss:sequencing ID="common">
      <imsss:rollupRules objectiveMeasureWeight="0"/>
      <imsss:deliveryControls completionSetByContent="true" objectiveSetByContent="true"/>
    </imsss:sequencing>
  </imsss:sequencingCollection>
</manifest>`,
    'one.html': page('one'),
    'two.html': page('two'),
    'three.html': page('three'),
  };
}

const manifestOf = (e: Entries) => {
  const files = new Map(Object.keys(e).map((k) => [k, 1]));
  return readManifest(files, (n) => (e[n] === undefined ? undefined : Buffer.from(e[n] as string)));
};

describe('the importer reads a SCORM course whole', () => {
  it('keeps every SCO of the organization, in clusters, each with its own settings', () => {
    const m = manifestOf(course12());
    expect(m.entry).toBe('a.html');
    expect(m.scorm?.tree).toEqual({
      id: 'org',
      title: 'Golf (1.2)',
      children: [
        {
          id: 'playing',
          title: 'Playing',
          children: [
            expect.objectContaining({ id: 'sco-a', entry: 'a.html' }),
            expect.objectContaining({
              id: 'sco-b',
              entry: 'b.html',
              settings: expect.objectContaining({ masteryScore: 80 }),
            }),
          ],
        },
        expect.objectContaining({ id: 'sco-c', title: 'Fun', entry: 'c.html' }),
      ],
    });
    expect(m.scorm?.sequencing).toBeUndefined();
  });

  it('writes SCORM 2004 sequencing as scorm-again takes it: controls, rules, objectives, collections', () => {
    const m = manifestOf(course2004());
    const seq = m.scorm?.sequencing as {
      activityTree: { id: string; sequencingControls: unknown; children: Record<string, unknown>[] };
      collections: Record<string, unknown>;
    };
    expect(seq.activityTree.id).toBe('org');
    expect(seq.activityTree.sequencingControls).toEqual({ choice: true, flow: true });
    expect(seq.collections.common).toEqual({
      id: 'common',
      sequencingControls: { objectiveMeasureWeight: 0 },
      deliveryControls: { completionSetByContent: true, objectiveSetByContent: true },
    });
    expect(seq.activityTree.children[1]).toMatchObject({
      id: 'two',
      sequencingCollectionRefs: 'common',
      sequencingRules: {
        preConditionRules: [
          {
            action: 'disabled',
            conditionCombination: 'any',
            conditions: [
              { condition: 'satisfied', operator: 'not', referencedObjective: 'previous' },
              { condition: 'objectiveStatusKnown', operator: 'not', referencedObjective: 'previous' },
            ],
          },
        ],
      },
      primaryObjective: {
        objectiveID: 'two_satisfied',
        isPrimary: true,
        mapInfo: [
          expect.objectContaining({
            targetObjectiveID: 'com.example.forced.two',
            writeSatisfiedStatus: true,
          }),
        ],
      },
      objectives: [
        {
          objectiveID: 'previous',
          mapInfo: [
            expect.objectContaining({
              targetObjectiveID: 'com.example.forced.one',
              writeSatisfiedStatus: false,
            }),
          ],
        },
      ],
    });
  });

  it('the engine honours them: the next SCO is disabled until the one before is satisfied', () => {
    const m = manifestOf(course2004());
    const delivered: string[] = [];
    let validity: { continue: boolean; choice: Record<string, string> } | null = null;
    const api = new Scorm2004API({
      logLevel: 5,
      sequencing: {
        ...(m.scorm?.sequencing as object),
        eventListeners: {
          onActivityDelivery: (a: { id: string }) => delivered.push(a.id),
          onNavigationValidityUpdate: (v: typeof validity) => {
            validity = v;
          },
        },
      },
    } as never);
    expect(api.processNavigationRequest('start')).toBe(true);
    expect(delivered).toEqual(['one']);
    expect(api.Initialize('')).toBe('true');
    expect(String(validity!.choice.three)).toBe('false');
    api.SetValue('cmi.completion_status', 'completed');
    api.SetValue('cmi.success_status', 'passed');
    api.SetValue('adl.nav.request', 'continue');
    expect(api.Terminate('')).toBe('true');
    expect(delivered).toEqual(['one', 'two']);
    expect(api.getActivityTrackingData('one')).toMatchObject({ successStatus: 'passed' });
  });
});

describe('SCORM 2004 4th edition sequencing extensions', () => {
  it('merges adlseq:objectives maps into the imsss objective of the same id', () => {
    const xml = `<sequencing>
      <objectives>
        <primaryObjective objectiveID="etiquette_completed"/>
        <objective objectiveID="previous_sco_completed"/>
      </objectives>
      <objectives>
        <objective objectiveID="etiquette_completed">
          <mapInfo targetObjectiveID="g.etiquette" readCompletionStatus="true" writeCompletionStatus="true"/>
        </objective>
        <objective objectiveID="previous_sco_completed">
          <mapInfo targetObjectiveID="g.playing" readCompletionStatus="true" writeCompletionStatus="false"/>
        </objective>
      </objectives>
    </sequencing>`;
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      isArray: (name) => ['objective', 'mapInfo'].includes(name),
    }).parse(xml) as { sequencing: Record<string, unknown> };
    const seq = sequencingOf(parsed.sequencing) as {
      primaryObjective: { mapInfo: Record<string, unknown>[] };
      objectives: { objectiveID: string; mapInfo: Record<string, unknown>[] }[];
    };
    expect(seq.primaryObjective.mapInfo).toEqual([
      {
        targetObjectiveID: 'g.etiquette',
        readSatisfiedStatus: false,
        readNormalizedMeasure: false,
        writeSatisfiedStatus: false,
        writeNormalizedMeasure: false,
        readCompletionStatus: true,
        writeCompletionStatus: true,
      },
    ]);
    expect(seq.objectives[0]).toMatchObject({
      objectiveID: 'previous_sco_completed',
      mapInfo: [{ targetObjectiveID: 'g.playing', readCompletionStatus: true, writeCompletionStatus: false }],
    });
  });
});

describe('a course’s fraction', () => {
  const summary = {} as never;
  it('SCORM 2004: the rollup’s measure, else its statuses; a 0 measure beside passed is no measure', () => {
    const f = (completion: string, success: string, scaled: number | null) =>
      courseFraction('scorm2004', summary, {}, { completion, success, scaled } as never);
    expect(f('incomplete', 'unknown', null)).toBeNull();
    expect(f('completed', 'unknown', null)).toBe(1);
    expect(f('completed', 'passed', 0.8)).toBe(0.8);
    expect(f('completed', 'passed', 0)).toBe(1);
    expect(f('completed', 'failed', 0.4)).toBe(0.4);
    expect(f('incomplete', 'failed', null)).toBe(0);
    expect(courseFraction('scorm2004', summary, {}, undefined)).toBeNull();
  });
});

describe('SCORM 1.2 RTE 3.4.4: a SCO that finishes without a status', () => {
  it('is completed, then judged by the mastery score when it gave a raw score; a status it set is kept', () => {
    const core = (c: Record<string, unknown>) => ({ core: c });
    expect(settleOnFinish('scorm12', core({ lesson_status: 'not attempted' }), null)).toEqual(
      core({ lesson_status: 'completed' }),
    );
    expect(settleOnFinish('scorm12', core({ score: { raw: '85' } }), 80)).toEqual(
      core({ score: { raw: '85' }, lesson_status: 'passed' }),
    );
    expect(settleOnFinish('scorm12', core({ lesson_status: '', score: { raw: '50' } }), 80)).toEqual(
      core({ lesson_status: 'failed', score: { raw: '50' } }),
    );
    expect(settleOnFinish('scorm12', core({ lesson_status: 'incomplete' }), null)).toEqual(
      core({ lesson_status: 'incomplete' }),
    );
    expect(settleOnFinish('scorm2004', { completion_status: 'unknown' }, null)).toEqual({
      completion_status: 'unknown',
    });
  });
});

let w: PackageWorld;
const clock = new TestClock(Date.now());
beforeAll(async () => {
  w = await startPackageWorld(
    'scormcourse',
    clock.now,
    {},
    {
      scorm12: await zipOf(course12()),
      scorm2004: await zipOf(course2004()),
    },
  );
});
afterAll(async () => w?.close());

async function pageOf(token: string, lessonId: string, pageId: string): Promise<PageData> {
  const res = await w.api(token)('GET', `/api/lessons/${lessonId}/pages/current?pageId=${pageId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: PageData }).data;
}

/** A SCO that only initializes and finishes, through scorm-again set as the bridge sets it. */
function minimumCalls(cmi: Record<string, unknown>) {
  const commits: { cmi: Record<string, unknown>; terminate: boolean }[] = [];
  const api = new Scorm12API({
    lmsCommitUrl: '/commit',
    autocommit: false,
    logLevel: 5,
    autoCompleteLessonStatus: true,
    mastery_override: true,
    httpService: {
      processHttpRequest: (_u: string, p: { cmi?: Record<string, unknown> }, immediate: boolean) => {
        commits.push({ cmi: (p.cmi ?? p) as Record<string, unknown>, terminate: !!immediate });
        return { result: 'true', errorCode: 0 };
      },
      updateSettings: () => undefined,
    },
  } as never);
  api.loadFromJSON(cmi);
  expect(api.LMSInitialize('')).toBe('true');
  expect(api.LMSFinish('')).toBe('true');
  return commits;
}

describe('a SCORM 1.2 course through the packages origin', () => {
  it('plays every SCO, each with its own data; a new launch resumes at the SCO the learner was in; the page is scored once all are done', async () => {
    const p = await w.toPackage('scorm12');
    const one = await launchOf(w, p);
    const b = bridge(w, one.key, one.secret);
    const start = await b('POST', '/start');
    expect(start.statusCode, start.body).toBe(200);
    const s = start.json() as {
      sco: string;
      entry: string;
      cmi: { core: { entry: string } };
      course: {
        toc: { children: { id: string; sco: boolean; children?: unknown[] }[] };
        entries: Record<string, string>;
        current: string;
        sequencing: unknown;
        state: unknown;
      };
    };
    expect(s.sco).toBe('sco-a');
    expect(s.course.current).toBe('sco-a');
    expect(s.course.sequencing).toBeNull();
    expect(s.course.toc.children.map((c) => [c.id, c.sco])).toEqual([
      ['playing', false],
      ['sco-c', true],
    ]);
    expect(Object.keys(s.course.entries)).toEqual(['sco-a', 'sco-b', 'sco-c']);
    expect(s.entry).toMatch(/\/a\.html$/);

    let sequence = 0;
    const play = async (sco: string, cmi: Record<string, unknown>) => {
      for (const c of minimumCalls(cmi)) {
        const res = await b('POST', '/commit', { ...c, sequence: ++sequence, sco });
        expect(res.statusCode, res.body).toBe(200);
        // scorm-again leaves it "not attempted" (its data model starts there); the server settles it.
        expect(c.cmi).toMatchObject({ core: { lesson_status: 'not attempted' } });
        expect(res.json()).toMatchObject({ applied: true, completion: 'completed', success: 'unknown' });
      }
    };
    await play('sco-a', s.cmi);
    expect((await pageOf(p.token, p.lessonId, p.pageId)).attributes.answeredAt).toBeNull();

    const bSco = await b('GET', '/sco/sco-b');
    expect(bSco.statusCode, bSco.body).toBe(200);
    const bData = bSco.json() as { entry: string; cmi: { core: { entry: string; lesson_status?: string } } };
    expect(bData.entry).toMatch(/\/b\.html$/);
    expect(bData.cmi.core.entry).toBe('ab-initio');
    expect((bData.cmi as { student_data?: { mastery_score?: string } }).student_data?.mastery_score).toBe(
      '80',
    );
    await play('sco-b', bData.cmi);

    // Another launch: where the learner was (sco-b), sco-a's data resumed.
    const two = await launchOf(w, p);
    const b2 = bridge(w, two.key, two.secret);
    const again = (await b2('POST', '/start')).json() as {
      sco: string;
      course: { current: string; statuses: unknown };
    };
    expect(again.sco).toBe('sco-b');
    expect(again.course.statuses).toEqual({
      'sco-a': { completion: 'completed', success: 'unknown' },
      'sco-b': { completion: 'completed', success: 'unknown' },
    });
    const aAgain = (await b2('GET', '/sco/sco-a')).json() as {
      cmi: { core: { entry: string; lesson_status: string } };
    };
    expect(aAgain.cmi.core).toMatchObject({ entry: 'resume', lesson_status: 'completed' });

    const cData = (await b('GET', '/sco/sco-c')).json() as { cmi: Record<string, unknown> };
    await play('sco-c', cData.cmi);
    const scored = await pageOf(p.token, p.lessonId, p.pageId);
    expect(scored.attributes.answeredAt).not.toBeNull();
    expect(scored.attributes.results?.tincan?.scaled).toBe(1);
  });

  it('refuses a SCO that is not in the package, and a course commit that names one', async () => {
    const p = await w.toPackage('scorm12', 'ben');
    const l = await launchOf(w, p);
    const b = bridge(w, l.key, l.secret);
    expect((await b('GET', '/sco/nope')).statusCode).toBe(404);
    const bad = await b('POST', '/commit', { cmi: { core: {} }, sequence: 1, sco: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { errors: { source?: { pointer?: string } }[] }).errors[0]?.source?.pointer).toBe(
      '/sco',
    );
  });
});

describe('a SCORM 2004 course: the engine state and the course rollup are kept', () => {
  it('keeps the state after a move without touching a SCO, and scores the page by the rollup', async () => {
    const p = await w.toPackage('scorm2004');
    const l = await launchOf(w, p);
    const b = bridge(w, l.key, l.secret);
    const s = (await b('POST', '/start')).json() as {
      course: { sequencing: { activityTree: { id: string } }; state: unknown };
    };
    expect(s.course.sequencing.activityTree.id).toBe('org');
    expect(s.course.state).toBeNull();
    const commit = (body: Record<string, unknown>) => b('POST', '/commit', body);
    const saved = await commit({
      cmi: { completion_status: 'completed', success_status: 'passed', location: 'p3' },
      sequence: 1,
      terminate: true,
      sco: 'one',
      state: '{"engine":1}',
      course: { completion: 'incomplete', success: 'unknown', scaled: null },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await pageOf(p.token, p.lessonId, p.pageId)).attributes.answeredAt).toBeNull();
    // A move: the engine's state only.
    expect((await commit({ cmi: {}, sequence: 2, state: '{"engine":2}' })).statusCode).toBe(200);
    const one = (await b('GET', '/sco/one')).json() as { cmi: { location: string; entry: string } };
    expect(one.cmi).toMatchObject({ location: 'p3', entry: 'resume' });
    const l2 = await launchOf(w, p);
    const again = (await bridge(w, l2.key, l2.secret)('POST', '/start')).json() as {
      course: { state: string };
    };
    expect(again.course.state).toBe('{"engine":2}');

    const bad = await commit({
      cmi: {},
      sequence: 3,
      course: { completion: 'done', success: 'unknown', scaled: null },
    });
    expect(bad.statusCode).toBe(400);
    const done = await commit({
      cmi: {},
      sequence: 4,
      state: '{"engine":3}',
      course: { completion: 'completed', success: 'passed', scaled: 0.75 },
    });
    expect(done.statusCode, done.body).toBe(200);
    const scored = await pageOf(p.token, p.lessonId, p.pageId);
    expect(scored.attributes.results?.tincan?.scaled).toBe(0.75);
  });
});
