import { calledUrls, mockApi } from '../test/api-mock';
import { getClassUsers } from '../features/home/api/get-class-users';
import { getLessons } from '../features/home/api/get-lessons';
import { getCurrentPage } from '../features/player/api/get-current-page';
import { sameRequest } from '../lib/early-requests';
import { setToken } from '../lib/storage';
import { planEarlyRequests, type EarlyInput } from './early-plan';

const NOW = 1_795_000_000_000;
const signedIn: EarlyInput = {
  origin: 'https://learn.example.org',
  pathname: '/',
  search: '',
  token: 'tok',
  userId: 'u1',
  apiBasePath: null,
  storedContext: null,
  now: NOW,
};
const context = (api: string) => JSON.stringify({ attributes: { hosts: { api } } });
const CONTEXT = '/api/contexts/current';
const ME = '/api/users/me';
const LESSONS = '/api/lessons?filter[userId]=u1&include=course&page[number]=1&page[size]=100';
const CLASS_USERS =
  '/api/class-users?filter[role]=STUDENT&filter[expired]=false&sort=-createdAt' +
  '&include=class.classPrograms.program.programCourses.course,class.teachers&page[number]=1&page[size]=100';

describe('the reads index.html starts', () => {
  it.each<[string, Partial<EarlyInput>, string[]]>([
    ['the home, signed in', {}, [CONTEXT, ME, LESSONS, CLASS_USERS]],
    ['the home without a stored user id', { userId: null }, [CONTEXT, ME, CLASS_USERS]],
    ['the home signed out', { token: null, userId: null }, [CONTEXT]],
    ['the sign-in page', { pathname: '/login', token: null }, [CONTEXT]],
    ['the sign-in page with a token', { pathname: '/login' }, [CONTEXT, ME]],
    ['another screen', { pathname: '/niveaux' }, [CONTEXT, ME]],
    [
      'a player page',
      { pathname: '/session/l1' },
      [CONTEXT, ME, `/api/lessons/l1/pages/current?noCache=${NOW}`],
    ],
    [
      'a player page by page id',
      { pathname: '/session/l%201/page/p1' },
      [CONTEXT, ME, `/api/lessons/l%201/pages/current?noCache=${NOW}&pageId=p1`],
    ],
    ['the player’s actions screen (not its page)', { pathname: '/session/l1/actions' }, [CONTEXT, ME]],
    // docs/product.md §2: under /reset/ the stored token is not checked; docs/product.md §6: the sandbox marker is no user.
    ['a reset link', { pathname: '/reset/abc' }, []],
    ['sandbox mode', { token: 'sandbox' }, []],
    ['a sign-in link (idT/idU)', { search: '?idT=t2&idU=u2' }, []],
    // Only the default same-origin base.
    ['a base path stored on the device', { apiBasePath: '/proxy/api' }, []],
    ['a tenant with its own API base', { storedContext: context('/tenant-api') }, [CONTEXT, ME]],
    [
      'a tenant with its own API base, as a URL',
      { storedContext: context('https://learn.example.org/t/') },
      [CONTEXT, ME],
    ],
    [
      'a tenant whose API host is the default',
      { storedContext: context('https://learn.example.org/api/') },
      [CONTEXT, ME, LESSONS, CLASS_USERS],
    ],
    // lib/api-base.ts ignores an API host on another origin: the calls stay on /api.
    [
      'a tenant whose API host is elsewhere',
      { storedContext: context('http://localhost:3000/api') },
      [CONTEXT, ME, LESSONS, CLASS_USERS],
    ],
    ['an unreadable stored context', { storedContext: '{' }, [CONTEXT, ME, LESSONS, CLASS_USERS]],
  ])('%s', (_, input, expected) => {
    expect(planEarlyRequests({ ...signedIn, ...input })).toEqual(expected);
  });

  it('asks what the screens ask, so their reads take the early answers', async () => {
    setToken('tok');
    const fetchMock = mockApi({
      lessons: { body: { data: [], meta: { total: 0 } } },
      'class-users': { body: { data: [], meta: { total: 0 } } },
      'lessons/l1/pages/current': { body: { data: { id: 'p', type: 'lesson-pages', attributes: {} } } },
    });
    await getLessons('u1');
    await getClassUsers(false);
    await getCurrentPage('l1');
    await getCurrentPage('l1', { pageId: 'p1' });
    const asked = calledUrls(fetchMock).map((url) => `${url.pathname}${url.search}`);
    const planned = [
      ...planEarlyRequests(signedIn).slice(2),
      ...planEarlyRequests({ ...signedIn, pathname: '/session/l1' }).slice(2),
      ...planEarlyRequests({ ...signedIn, pathname: '/session/l1/page/p1' }).slice(2),
    ];
    expect(planned).toHaveLength(asked.length);
    planned.forEach((url, i) => expect(sameRequest(url, asked[i]!)).toBe(true));
  });
});
