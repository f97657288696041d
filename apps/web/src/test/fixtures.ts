import type {
  ContextAttributes,
  LessonAttributes,
  MeResponse,
  Resource,
  UserDomain,
} from '@parcours/domain/entities';
import type { ClassUsersDocument } from '../features/home/api/get-class-users';
import { setTenant, type Tenant } from '../lib/tenant';

export function tenant(
  overrides: Partial<ContextAttributes['settings']> = {},
  name = 'Acme Academy',
): Tenant {
  return {
    type: 'contexts',
    id: 'ctx-1',
    attributes: {
      alias: 'acme',
      name,
      description: null,
      hosts: {},
      assets: {
        logo: null,
        favicon: null,
        colors: { primary: '#1d4ed8', secondary: '#0f766e' },
        splashScreens: {},
        touchIcons: {},
      },
      metas: {},
      isGeneric: false,
      settings: {
        defaultLocale: 'fr',
        login: { internal: true, oidc: null },
        invitationCodes: { enabled: false, simplePassword: false },
        certification: { allowed: true, type: 'certification' },
        allowContactTeacher: true,
        profile: {
          fields: { firstname: true, lastname: true, email: true, username: false, birthday: true },
        },
        requiredDatas: false,
        emailNotifications: true,
        demoVideoUrl: null,
        legal: { cgu: null, rgpd: null },
        ...overrides,
      },
    },
  };
}

export function withTenant(overrides: Partial<ContextAttributes['settings']> = {}, name?: string): Tenant {
  const value = tenant(overrides, name);
  setTenant(value);
  return value;
}

export function me(domain: UserDomain = 'public', id = 'u-1'): MeResponse {
  return {
    _id: id,
    profile: {
      id,
      username: 'jdoe',
      firstname: 'Jane',
      lastname: 'Doe',
      displayName: 'Jane Doe',
      avatarId: null,
      email: 'jane@example.org',
      birthday: null,
      legal: { cguAcceptedVersion: null, cguAcceptedAt: null },
      supportGroups: [],
      scoring: {},
      contributionLevel: 0,
      donePageCount: { global: 0 },
      timeAlive: { global: 0 },
      isFromInvitationCode: false,
      tincanIdentifier: null,
      roles: [],
      permissions: [],
      companies: [],
      createdAt: '2024-01-01T00:00:00.000Z',
      domain,
      preferredLocale: null,
      contextId: 'ctx-1',
      needsRequiredDatas: false,
    },
  };
}

export interface CourseSpec {
  id: string;
  title: string;
  competencyIds?: string[];
}
export interface ProgramSpec {
  id: string;
  name: string;
  courses: CourseSpec[];
}
export interface ClassSpec {
  id: string;
  name: string;
  startAt?: string | null;
  expireAt?: string | null;
  mobileAllowed?: boolean;
  programs?: ProgramSpec[];
  teachers?: string[];
}

const rel = (type: string, id: string) => ({ data: { type, id } });
const rels = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

/** A class-users document shaped like the API's, with everything included. */
export function classUsersDoc(classes: ClassSpec[]): ClassUsersDocument {
  const included: Resource[] = [];
  const data = classes.map((cls, i) => {
    const programs = cls.programs ?? [];
    const teachers = cls.teachers ?? [];
    included.push({
      type: 'classes',
      id: cls.id,
      attributes: {
        name: cls.name,
        startAt: cls.startAt ?? '2020-01-01T00:00:00.000Z',
        expireAt: cls.expireAt ?? null,
        settings: cls.mobileAllowed === false ? { mobile: { allowed: false } } : {},
        createdAt: '2024-01-01T00:00:00.000Z',
      },
      relationships: {
        classPrograms: rels(
          'class-programs',
          programs.map((p) => `${cls.id}-${p.id}`),
        ),
        teachers: rels(
          'users',
          teachers.map((_, t) => `${cls.id}-t${t}`),
        ),
      },
    });
    teachers.forEach((name, t) =>
      included.push({ type: 'users', id: `${cls.id}-t${t}`, attributes: { displayName: name } }),
    );
    programs.forEach((p, order) => {
      included.push({
        type: 'class-programs',
        id: `${cls.id}-${p.id}`,
        attributes: {
          classId: cls.id,
          programId: p.id,
          order,
          startAt: null,
          expireAt: null,
          openingBoundaries: {},
        },
        relationships: { program: rel('programs', p.id) },
      });
      included.push({
        type: 'programs',
        id: p.id,
        attributes: {
          name: p.name,
          description: null,
          icon: null,
          public: false,
          settings: {},
          tags: [],
          state: 'PUBLISHED',
        },
        relationships: {
          programCourses: rels(
            'program-courses',
            p.courses.map((c) => `${p.id}-${c.id}`),
          ),
        },
      });
      p.courses.forEach((c, corder) => {
        included.push({
          type: 'program-courses',
          id: `${p.id}-${c.id}`,
          attributes: { programId: p.id, courseId: c.id, order: corder, settings: {} },
          relationships: { course: rel('courses', c.id) },
        });
        included.push({
          type: 'courses',
          id: c.id,
          attributes: {
            title: c.title,
            description: null,
            reference: null,
            state: 'PUBLISHED',
            categoryId: 'cat',
            typeId: null,
            competencyIds: c.competencyIds ?? [],
            video: null,
            settings: {},
            createdAt: '2024-01-01T00:00:00.000Z',
            updatedAt: '2024-01-01T00:00:00.000Z',
          },
        });
      });
    });
    return {
      type: 'class-users',
      id: `cu-${i}`,
      attributes: {
        classId: cls.id,
        userId: 'u-1',
        role: 'STUDENT' as const,
        createdAt: '2024-01-01T00:00:00.000Z',
      },
      relationships: { class: rel('classes', cls.id) },
    };
  });
  return { data, included, meta: { total: data.length } };
}

export function lesson(
  id: string,
  classId: string,
  programCourseId: string,
  courseId: string,
  overrides: Partial<LessonAttributes> = {},
): Resource<string, LessonAttributes> {
  return {
    type: 'lessons',
    id,
    attributes: {
      userId: 'u-1',
      classId,
      classProgramId: null,
      classStepProgramId: null,
      courseId,
      programCourseId,
      contextId: 'ctx-1',
      currentNodeId: null,
      enabledSectionIds: [],
      timeLimit: null,
      timeSpent: 0,
      timeAlive: 0,
      state: 'AVAILABLE',
      progress: null,
      certificationRef: null,
      isEndOfProgram: false,
      tree: [],
      percentProgression: 0,
      actions: { interactive: [], unlockedLessons: [] },
      scoring: { global: { actual: 0, max: 0 } },
      startAt: null,
      startedAt: null,
      createdAt: '2024-01-01T00:00:00.000Z',
      ...overrides,
    },
  };
}

/** An unsigned JWT-shaped token: the web reads claims, it never checks signatures. */
export function fakeToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`;
}
