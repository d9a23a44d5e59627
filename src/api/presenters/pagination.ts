import type { Page } from '../../domain/pagination.ts';
import type { PageView } from '../../schemas/pagination.ts';

/** The page every list endpoint answers (src/schemas/pagination.ts), from the shared keyset helper's page. */
export function pageView<Row, View>(page: Page<Row>, view: (row: Row) => View, idOf: (row: Row) => string): PageView<View> {
  const first = page.items[0];
  const last = page.items.at(-1);
  return {
    items: page.items.map(view),
    has_more: page.hasMore,
    next_cursor: last && page.olderExists ? idOf(last) : null,
    previous_cursor: first && page.newerExists ? idOf(first) : null,
  };
}
