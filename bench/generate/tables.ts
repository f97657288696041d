/**
 * The columns the generator writes, per table, in the order of its row tuples. One list serves
 * both writers: SQLite binds them to a prepared INSERT, PostgreSQL to `unnest` of typed arrays.
 * Columns not listed take their defaults.
 */
export type ColumnType = 'text' | 'integer' | 'real';
export type Cell = string | number | null;
export type Row = Cell[];

export const TABLES = {
  classes: [
    ['id', 'text'],
    ['context_id', 'text'],
    ['name', 'text'],
    ['start_at', 'text'],
    ['expire_at', 'text'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
  ],
  class_programs: [
    ['id', 'text'],
    ['class_id', 'text'],
    ['program_id', 'text'],
    ['order', 'integer'],
  ],
  users: [
    ['id', 'text'],
    ['context_id', 'text'],
    ['email', 'text'],
    ['firstname', 'text'],
    ['lastname', 'text'],
    ['legal', 'text'],
    ['scoring', 'text'],
    ['password_hash', 'text'],
    ['done_page_count', 'integer'],
    ['time_alive', 'integer'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
  ],
  class_users: [
    ['id', 'text'],
    ['class_id', 'text'],
    ['user_id', 'text'],
    ['role', 'text'],
    ['created_at', 'text'],
  ],
  lessons: [
    ['id', 'text'],
    ['context_id', 'text'],
    ['user_id', 'text'],
    ['class_id', 'text'],
    ['class_program_id', 'text'],
    ['program_course_id', 'text'],
    ['course_id', 'text'],
    ['enabled_section_ids', 'text'],
    ['state', 'text'],
    ['progress', 'text'],
    ['time_spent', 'integer'],
    ['time_alive', 'integer'],
    ['scoring', 'text'],
    ['start_at', 'text'],
    ['started_at', 'text'],
    ['ended_at', 'text'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
  ],
  lesson_pages: [
    ['id', 'text'],
    ['lesson_id', 'text'],
    ['node_id', 'text'],
    ['section_id', 'text'],
    ['choice_of', 'text'],
    ['position', 'integer'],
    ['progress', 'text'],
    ['score_actual', 'real'],
    ['score_max', 'real'],
    ['time_spent', 'integer'],
    ['time_alive', 'integer'],
    ['opened_at', 'text'],
    ['answered_at', 'text'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
  ],
  records: [
    ['id', 'text'],
    ['context_id', 'text'],
    ['user_id', 'text'],
    ['date', 'text'],
    ['scoring', 'text'],
  ],
  log_book_records: [
    ['id', 'text'],
    ['context_id', 'text'],
    ['title', 'text'],
    ['message', 'text'],
    ['student_id', 'text'],
    ['user_id', 'text'],
    ['created_at', 'text'],
    ['last_input_at', 'text'],
  ],
} as const satisfies Record<string, readonly (readonly [string, ColumnType])[]>;

export type TableName = keyof typeof TABLES;

/** Rows to insert, per table; written parents first (the order of TABLES). */
export type Batch = Record<TableName, Row[]>;

export function emptyBatch(): Batch {
  return Object.fromEntries(Object.keys(TABLES).map((t) => [t, []])) as unknown as Batch;
}
