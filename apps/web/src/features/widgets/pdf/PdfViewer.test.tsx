import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PdfViewer } from './PdfViewer';

// pdf.js is mocked at the module boundary (load-pdfjs): a 3-page document whose text layer
// writes "Text of page N", so the test sees which page is drawn.
const getDocument = vi.fn();
const destroyed = vi.fn();

vi.mock('./load-pdfjs', () => ({
  loadPdfjs: () =>
    Promise.resolve({
      getDocument,
      TextLayer: class {
        private readonly container: HTMLElement;
        private readonly source: { page: number };
        constructor(options: { container: HTMLElement; textContentSource: { page: number } }) {
          this.container = options.container;
          this.source = options.textContentSource;
        }
        render() {
          const span = document.createElement('span');
          span.textContent = `Text of page ${this.source.page}`;
          this.container.append(span);
          return Promise.resolve();
        }
        cancel() {}
      },
    }),
}));

beforeEach(() => {
  getDocument.mockReset();
  destroyed.mockReset();
  getDocument.mockImplementation(() => ({
    promise: Promise.resolve({
      numPages: 3,
      getPage: (n: number) =>
        Promise.resolve({
          getViewport: ({ scale }: { scale: number }) => ({ width: 600 * scale, height: 800 * scale }),
          render: () => ({ promise: Promise.resolve(), cancel() {} }),
          streamTextContent: () => ({ page: n }),
        }),
    }),
    destroy: () => {
      destroyed();
      return Promise.resolve();
    },
  }));
  // jsdom has no canvas: the drawing is skipped, the text layer still comes.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

describe('PdfViewer', () => {
  it('loads the URL the API gave and shows page 1 of 3 with its text for screen readers', async () => {
    render(<PdfViewer url="/api/files/f1/download?sig=x" name="consignes.pdf" />);
    expect(await screen.findByText('Text of page 1')).toBeInTheDocument();
    expect(getDocument).toHaveBeenCalledWith(
      expect.objectContaining({ url: '/api/files/f1/download?sig=x' }),
    );
    expect(
      screen.getByRole('region', { name: 'PDF document consignes.pdf — Page 1 of 3' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Download consignes.pdf/ })).toHaveAttribute(
      'href',
      '/api/files/f1/download?sig=x',
    );
  });

  it('pages by keyboard while the viewer has focus: PageDown, ArrowRight, PageUp, End, Home', async () => {
    const user = userEvent.setup();
    render(<PdfViewer url="/doc.pdf" name="doc.pdf" />);
    await screen.findByText('Text of page 1');
    const frame = screen.getByRole('region', { name: /Page 1 of 3/ });
    frame.focus();
    await user.keyboard('{PageDown}');
    expect(await screen.findByText('Text of page 2')).toBeInTheDocument();
    expect(screen.queryByText('Text of page 1')).not.toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(await screen.findByText('Text of page 3')).toBeInTheDocument();
    await user.keyboard('{PageDown}');
    expect(screen.getByRole('region', { name: /Page 3 of 3/ })).toBeInTheDocument();
    await user.keyboard('{PageUp}');
    expect(await screen.findByText('Text of page 2')).toBeInTheDocument();
    await user.keyboard('{Home}');
    expect(await screen.findByText('Text of page 1')).toBeInTheDocument();
    await user.keyboard('{End}');
    expect(await screen.findByText('Text of page 3')).toBeInTheDocument();
    expect(screen.getByText('Page 3 of 3', { selector: '[aria-live]' })).toBeInTheDocument();
  });

  it('pages with the buttons and the page number field; previous is disabled on page 1', async () => {
    const user = userEvent.setup();
    render(<PdfViewer url="/doc.pdf" name="doc.pdf" />);
    await screen.findByText('Text of page 1');
    expect(screen.getByRole('button', { name: /Previous page/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /Next page/ }));
    expect(await screen.findByText('Text of page 2')).toBeInTheDocument();
    const field = screen.getByRole('spinbutton', { name: 'Page' });
    await user.clear(field);
    await user.type(field, '3');
    expect(await screen.findByText('Text of page 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Next page/ })).toBeDisabled();
  });

  it('zooms in and out by steps and back to the width', async () => {
    const user = userEvent.setup();
    render(<PdfViewer url="/doc.pdf" name="doc.pdf" />);
    await screen.findByText('Text of page 1');
    // jsdom lays nothing out: fitting the width falls back to 100 %.
    expect(screen.getByText('100 %')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(await screen.findByText('125 %')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Fit to width' })).toHaveAttribute('aria-pressed', 'false');
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(await screen.findByText('75 %')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Fit to width' }));
    expect(await screen.findByText('100 %')).toBeInTheDocument();
  });

  it('says so when the document cannot be loaded', async () => {
    getDocument.mockImplementationOnce(() => ({
      promise: Promise.reject(new Error('404')),
      destroy: () => Promise.resolve(),
    }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(<PdfViewer url="/missing.pdf" name="missing.pdf" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be shown');
    warn.mockRestore();
  });

  it('frees the document when it goes away', async () => {
    const view = render(<PdfViewer url="/doc.pdf" name="doc.pdf" />);
    await screen.findByText('Text of page 1');
    view.unmount();
    await waitFor(() => expect(destroyed).toHaveBeenCalled());
  });
});
