import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation, useParams } from 'react-router';
import { setToken } from '../../../lib/storage';
import { calledUrls, mockApi, type MockHandler } from '../../../test/api-mock';
import { rowRegistry } from '../../exercises/registry';
import type { CourseNodeAttributes } from '../api/get-course-node';
import { PlayerSlotsContext } from '../player-slots';
import { block } from '../test-pages';
import { CourseNodePage } from './CourseNodePage';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

/** Keyed by id like the real screen, so a new node starts afresh. */
function NodeRoute() {
  const { id = '' } = useParams();
  return <CourseNodePage key={id} nodeId={id} />;
}

function renderNode(nodeId: string, handlers: Record<string, MockHandler>) {
  setToken('token');
  const fetchMock = mockApi(handlers);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PlayerSlotsContext value={{ rows: rowRegistry }}>
        <MemoryRouter initialEntries={[`/render/node/${nodeId}`]}>
          <Where />
          <Routes>
            <Route path="/render/node/:id" element={<NodeRoute />} />
            <Route path="*" element={null} />
          </Routes>
        </MemoryRouter>
      </PlayerSlotsContext>
    </QueryClientProvider>,
  );
  return fetchMock;
}

const node = (id: string, attributes: Partial<CourseNodeAttributes> = {}) => ({
  type: 'course-nodes',
  id,
  attributes: {
    kind: 'block',
    title: null,
    parentId: 's1',
    blockId: null,
    courseId: 'c1',
    order: 0,
    settings: {},
    tools: {},
    attachmentIds: [],
    ...attributes,
  },
});

const ref = (id: string) => ({ type: 'course-nodes', id });

/** A multiblock m1 (children listed out of order: the page sorts them) followed by m2 under s1. */
const multiblock = {
  data: {
    ...node('m1', { kind: 'multiblock', title: 'Training', order: 1 }),
    relationships: { children: { data: [ref('k2'), ref('k1')] } },
  },
  included: [
    node('k1', { title: 'Fractions on a disk', blockId: 'b1', parentId: 'm1', order: 1 }),
    node('k2', { title: 'Equal fractions', blockId: 'b2', parentId: 'm1', order: 2 }),
  ],
};

const blockDoc = (id: string, title: string) => {
  const { id: _, terms: __, type: kind, ...attributes } = block({ id, title });
  return { data: { type: 'course-blocks', id, attributes: { ...attributes, kind, termIds: [] } } };
};

const siblings = (...ids: string[]) => ({ body: { data: ids.map((id, i) => node(id, { order: i + 1 })) } });

describe('CourseNodePage (node mode, SPEC §2)', () => {
  it('offers a multiblock by numbered titles, shows the chosen child, and Next opens the next node', async () => {
    const user = userEvent.setup();
    const fetchMock = renderNode('m1', {
      'GET course-nodes/m1': { body: multiblock },
      'GET course-blocks/b2': { body: blockDoc('b2', 'Equal fractions') },
      'GET course-nodes/m2': { body: { data: node('m2', { blockId: 'b3', order: 2 }) } },
      'GET course-blocks/b3': { body: blockDoc('b3', 'Percentages') },
      'GET course-nodes': siblings('m1', 'm2'),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Training' })).toBeInTheDocument();
    const choices = screen.getAllByRole('button', { name: /^\d\. / });
    expect(choices.map((b) => b.textContent)).toEqual(['1. Fractions on a disk', '2. Equal fractions']);
    expect(screen.getByRole('navigation', { name: 'Activities' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Next/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '2. Equal fractions' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Equal fractions' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: '2/4' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/render/node/m2'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Percentages' })).toBeInTheDocument();
    const siblingQuery = calledUrls(fetchMock).find((u) => u.pathname === '/api/course-nodes');
    expect(siblingQuery?.searchParams.get('filter[parentId]')).toBe('s1');
    // Node mode records and grades nothing.
    expect(fetchMock.mock.calls.some(([, init]) => init?.method && init.method !== 'GET')).toBe(false);
  });

  it('goes home after the last node of its parent', async () => {
    const user = userEvent.setup();
    renderNode('m2', {
      'GET course-nodes/m2': { body: { data: node('m2', { blockId: 'b3', order: 2 }) } },
      'GET course-blocks/b3': { body: blockDoc('b3', 'Percentages') },
      'GET course-nodes': siblings('m1', 'm2'),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Percentages' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/));
  });

  it('shows its progression, free hints by click, its resources, and the feedbacks before going next', async () => {
    const user = userEvent.setup();
    const resourceBlock = blockDoc('rb1', 'The assembly point').data;
    const withResource = {
      data: {
        ...node('m1', { blockId: 'b1', title: 'Instructions', order: 1 }),
        relationships: { children: { data: [ref('r1')] } },
      },
      included: [
        {
          ...node('r1', { blockId: 'rb1', parentId: 'm1', title: 'Assembly point' }),
          relationships: { block: { data: { type: 'course-blocks', id: 'rb1' } } },
        },
        {
          ...resourceBlock,
          attributes: {
            ...resourceBlock.attributes,
            content: { statement: { html: '<p>Stay at the assembly point.</p>' }, sections: [] },
          },
        },
      ],
    };
    const fetchMock = renderNode('m1', {
      'GET course-nodes/m1': { body: withResource },
      'GET course-blocks/b1': { body: blockDoc('b1', 'Instructions') },
      'GET course-nodes/m1/guidance': {
        body: {
          data: {
            type: 'node-guidance',
            id: 'm1',
            attributes: {
              position: { index: 1, count: 3 },
              hints: { messages: ['<p>Free hint</p>'], total: 3 },
              feedbacks: [
                { preset: 'info', message: '<p>First feedback</p>' },
                { preset: 'success', message: '<p>Second feedback</p>' },
              ],
            },
          },
        },
      },
      'GET course-nodes/m2': { body: { data: node('m2', { blockId: 'b3', order: 2 }) } },
      'GET course-blocks/b3': { body: blockDoc('b3', 'Percentages') },
      'GET course-nodes': siblings('m1', 'm2'),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Instructions' })).toBeInTheDocument();
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress in the section' })).toBeInTheDocument();

    // Hints: the free one by click; the two with a cost are said to be in the lesson.
    expect(screen.getByText('2 more hints, with a cost, are unlocked in the lesson.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show a hint (1 left)' }));
    expect(screen.getByText('Free hint')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Show a hint/ })).not.toBeInTheDocument();

    // Resources: the resource node with its block, in the modal.
    await user.click(await screen.findByRole('button', { name: 'Resources (1)' }));
    const modal = await screen.findByRole('dialog', { name: 'Resources' });
    expect(modal).toHaveTextContent('The assembly point');
    expect(modal).toHaveTextContent('Stay at the assembly point.');
    await user.click(screen.getByRole('button', { name: 'Close' }));

    // Next: the feedbacks one at a time, then the next node.
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByRole('dialog', { name: 'Good to know' })).toHaveTextContent('First feedback');
    expect(screen.getByTestId('where')).toHaveTextContent('/render/node/m1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('dialog', { name: 'Well done' })).toHaveTextContent('Second feedback');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/render/node/m2'));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method && init.method !== 'GET')).toBe(false);
    // A long journey of clicks: more than the default 5 s on a loaded machine.
  }, 20_000);

  // The server sends the learner's own limit (decision 0019): null for a learner with no time
  // limit, whose countdown must not start, since its end would move them on to the next node.
  it.each<[string, number | null, string | null]>([
    ['no time limit: no countdown', null, null],
    ['×1.5 of 30 s: the countdown starts at 45 s', 45, '00:45'],
  ])('%s', async (_label, timeLimit, shown) => {
    renderNode('t1', {
      'GET course-nodes/t1': {
        body: { data: node('t1', { blockId: 'b1', title: 'Timed', settings: { timeLimit } }) },
      },
      'GET course-blocks/b1': { body: blockDoc('b1', 'Timed question') },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Timed question' })).toBeInTheDocument();
    if (shown === null) expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    else expect(screen.getByRole('timer')).toHaveTextContent(shown);
    expect(screen.getByTestId('where')).toHaveTextContent('/render/node/t1');
  });

  it('says so when the node cannot be found', async () => {
    renderNode('gone', {});
    expect(await screen.findByText('This content cannot be found.')).toBeInTheDocument();
  });
});
