/** Renders one row renderer the way the player does, holding its answer in state (tests only). */
import type { PublicRowView } from '@parcours/domain/entities';
import type { RowCorrection } from '@parcours/domain/exercises/registry';
import { render } from '@testing-library/react';
import { Suspense, useState } from 'react';
import type { ComponentType } from 'react';
import type { DocumentsDialogProps, RowComponent } from './row-props';

export function renderRow(
  Component: RowComponent,
  row: PublicRowView,
  options: {
    value?: unknown;
    readOnly?: boolean;
    correction?: RowCorrection | null;
    DocumentsDialog?: ComponentType<DocumentsDialogProps>;
  } = {},
) {
  const changes: unknown[] = [];
  const announcements: string[] = [];
  function Host() {
    const [value, setValue] = useState<unknown>(options.value ?? null);
    return (
      <>
        <p id="question">The question</p>
        <Suspense fallback={null}>
          <Component
            row={row}
            rowIndex={0}
            idPrefix="t"
            labelledBy="question"
            value={value}
            onChange={(next) => {
              changes.push(next);
              setValue(next);
            }}
            readOnly={options.readOnly ?? false}
            correction={options.correction ?? null}
            announce={(message) => announcements.push(message)}
            DocumentsDialog={options.DocumentsDialog}
          />
        </Suspense>
      </>
    );
  }
  const result = render(<Host />);
  return { ...result, changes, announcements, last: () => changes[changes.length - 1] };
}
