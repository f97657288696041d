import type { Kysely } from 'kysely';

/**
 * The whole data model of docs/product.md §3 in one migration, so that later work adds behaviour rather
 * than schema churn. Portable on purpose (decision 0002): ids are text, timestamps are UTC ISO
 * strings in text columns, JSON is kept as text, flags are 0/1 integers. Column names are
 * snake_case; Kysely's CamelCasePlugin maps them to the spec's camelCase names.
 */
// Kysely migrations receive Kysely<any>: the schema does not exist yet while it runs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contexts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('alias', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('hosts', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('assets', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('metas', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('is_generic', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Host header -> tenant. One row per hostname the tenant answers on (app, api, ...).
  await db.schema
    .createTable('context_hostnames')
    .addColumn('hostname', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('libraries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('owner_id', 'text')
    .addColumn('owner_type', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('library_id', 'text', (c) => c.references('libraries.id').onDelete('set null'))
    .addColumn('owner_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull()) // mime type
    .addColumn('file_type', 'text', (c) => c.notNull()) // image | pdf | audio | video
    .addColumn('icon', 'text')
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('storage_path', 'text', (c) => c.notNull()) // relative to DATA_DIR/files
    .addColumn('sha256', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('username', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('firstname', 'text')
    .addColumn('lastname', 'text')
    .addColumn('avatar_id', 'text', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('birthday', 'text') // YYYY-MM-DD
    .addColumn('legal', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('support_groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('scoring', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('contribution_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('done_page_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('time_alive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_from_invitation_code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tincan_identifier', 'text')
    .addColumn('preferred_locale', 'text')
    .addColumn('oidc_subject', 'text')
    // Tokens issued before this instant are refused (password change, logout everywhere).
    .addColumn('tokens_valid_after', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('users_context_email_uq')
    .on('users')
    .columns(['context_id', 'email'])
    .unique()
    .execute();
  await db.schema
    .createIndex('users_context_username_uq')
    .on('users')
    .columns(['context_id', 'username'])
    .unique()
    .execute();
  await db.schema
    .createIndex('users_context_oidc_uq')
    .on('users')
    .columns(['context_id', 'oidc_subject'])
    .unique()
    .execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique()) // superadmin | admin
    .addColumn('description', 'text')
    .execute();

  await db.schema
    .createTable('role_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('principal_type', 'text', (c) => c.notNull()) // USER
    .addColumn('principal_id', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'text') // context id, or null for the whole platform
    .execute();
  await db.schema
    .createIndex('role_users_principal_idx')
    .on('role_users')
    .columns(['principal_id'])
    .execute();

  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('avatar_id', 'text', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('company_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('company_users_uq')
    .on('company_users')
    .columns(['company_id', 'user_id', 'role'])
    .unique()
    .execute();
  await db.schema.createIndex('company_users_user_idx').on('company_users').columns(['user_id']).execute();

  await db.schema
    .createTable('course_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await db.schema
    .createTable('course_categories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('background_image_id', 'text', (c) => c.references('files.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('course_competencies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('course_competencies.id').onDelete('cascade'))
    .addColumn('is_generic', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('courses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('reference', 'text')
    .addColumn('state', 'text', (c) => c.notNull()) // DRAFT | PUBLISHED | CLOSED
    .addColumn('category_id', 'text', (c) => c.notNull().references('course_categories.id'))
    .addColumn('type_id', 'text', (c) => c.references('course_types.id'))
    .addColumn('competency_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('video', 'text')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('course_terms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('words', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('definition', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('course_blocks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull()) // slide | exercice | tincan
    .addColumn('category_id', 'text', (c) => c.references('course_categories.id'))
    .addColumn('competency_id', 'text', (c) => c.references('course_competencies.id'))
    .addColumn('attachment_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    // What the learner may see before answering: template settings, hint messages and costs.
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    // Statement, sections and rows as shown, with every expected answer stripped out.
    .addColumn('content', 'text', (c) => c.notNull().defaultTo('{}'))
    // Server-only: per-row validators (expected answers, tolerances) and all feedbacks.
    // Never serialised to a learner before their answer is recorded (docs/product.md §3, docs/architecture.md §1).
    .addColumn('solution', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('course_block_terms')
    .addColumn('block_id', 'text', (c) => c.notNull().references('course_blocks.id').onDelete('cascade'))
    .addColumn('term_id', 'text', (c) => c.notNull().references('course_terms.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('course_block_terms_pk', ['block_id', 'term_id'])
    .execute();

  await db.schema
    .createTable('course_nodes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('course_nodes.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull()) // root | container | multiblock | block
    .addColumn('block_id', 'text', (c) => c.references('course_blocks.id'))
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('tools', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('conditions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('attachment_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createIndex('course_nodes_course_parent_idx')
    .on('course_nodes')
    .columns(['course_id', 'parent_id', 'order'])
    .execute();
  await db.schema.createIndex('course_nodes_parent_idx').on('course_nodes').columns(['parent_id']).execute();

  await db.schema
    .createTable('programs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'text')
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('program_courses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('program_id', 'text', (c) => c.notNull().references('programs.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .createIndex('program_courses_program_idx')
    .on('program_courses')
    .columns(['program_id', 'order'])
    .execute();

  await db.schema
    .createTable('classes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.references('companies.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('start_at', 'text')
    .addColumn('expire_at', 'text')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('classes_context_idx')
    .on('classes')
    .columns(['context_id', 'expire_at'])
    .execute();

  await db.schema
    .createTable('class_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull()) // STUDENT | TEACHER
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('class_users_uq')
    .on('class_users')
    .columns(['class_id', 'user_id', 'role'])
    .unique()
    .execute();
  await db.schema
    .createIndex('class_users_user_idx')
    .on('class_users')
    .columns(['user_id', 'role', 'created_at'])
    .execute();

  await db.schema
    .createTable('class_programs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id').onDelete('cascade'))
    .addColumn('program_id', 'text', (c) => c.notNull().references('programs.id').onDelete('cascade'))
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_at', 'text')
    .addColumn('expire_at', 'text')
    .addColumn('opening_boundaries', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .createIndex('class_programs_class_idx')
    .on('class_programs')
    .columns(['class_id', 'order'])
    .execute();

  // A step of a class program: which program course (resource) it opens, in which order.
  await db.schema
    .createTable('class_steps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('class_program_id', 'text', (c) =>
      c.notNull().references('class_programs.id').onDelete('cascade'),
    )
    .addColumn('resource_id', 'text', (c) => c.notNull()) // program_courses.id
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('lessons')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('class_id', 'text', (c) => c.notNull().references('classes.id').onDelete('cascade'))
    .addColumn('class_program_id', 'text', (c) => c.references('class_programs.id').onDelete('cascade'))
    .addColumn('class_step_program_id', 'text', (c) => c.references('class_steps.id').onDelete('set null'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id'))
    .addColumn('program_course_id', 'text', (c) => c.references('program_courses.id').onDelete('set null'))
    .addColumn('current_node_id', 'text')
    .addColumn('enabled_section_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('time_limit', 'integer') // seconds, null = none
    .addColumn('time_spent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('time_alive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull()) // LOCKED | AVAILABLE | HIDDEN | DONE | SKIPPED | EXPIRED
    .addColumn('progress', 'text') // null | ONGOING | COMPLETED
    .addColumn('certification_ref', 'text')
    .addColumn('is_end_of_program', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scoring', 'text', (c) => c.notNull().defaultTo('{"global":{"actual":0,"max":0}}'))
    .addColumn('actions', 'text', (c) => c.notNull().defaultTo('{"interactive":[],"unlockedLessons":[]}'))
    .addColumn('start_at', 'text')
    .addColumn('started_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('lessons_user_idx')
    .on('lessons')
    .columns(['user_id', 'context_id', 'started_at'])
    .execute();
  await db.schema
    .createIndex('lessons_user_class_idx')
    .on('lessons')
    .columns(['user_id', 'class_id'])
    .execute();
  await db.schema
    .createIndex('lessons_user_program_course_idx')
    .on('lessons')
    .columns(['user_id', 'program_course_id'])
    .execute();
  // One lesson per learner, class program and program course.
  await db.schema
    .createIndex('lessons_enrolment_uq')
    .on('lessons')
    .columns(['user_id', 'class_program_id', 'program_course_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('lesson_pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lesson_id', 'text', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('node_id', 'text', (c) => c.notNull().references('course_nodes.id'))
    .addColumn('section_id', 'text') // the container node the page belongs to
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('ACTIVE')) // ACTIVE | ARCHIVED
    .addColumn('progress', 'text') // null | ONGOING | COMPLETED
    .addColumn('inputs', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('results', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('sheet', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('hints_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('score_actual', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('score_max', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('time_spent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('time_alive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('time_limit', 'integer')
    .addColumn('opened_at', 'text')
    .addColumn('answered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One page per lesson, node and attempt: two tabs cannot create or grade the same page twice.
  await db.schema
    .createIndex('lesson_pages_uq')
    .on('lesson_pages')
    .columns(['lesson_id', 'node_id', 'attempt'])
    .unique()
    .execute();
  await db.schema
    .createIndex('lesson_pages_lesson_idx')
    .on('lesson_pages')
    .columns(['lesson_id', 'state', 'position'])
    .execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('class_id', 'text', (c) => c.references('classes.id').onDelete('set null'))
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('ratio', 'real', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reviews_uq')
    .on('reviews')
    .columns(['user_id', 'resource_type', 'resource_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('log_book_records')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('student_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('log_book_records.id').onDelete('cascade'))
    .addColumn('class_id', 'text', (c) => c.references('classes.id').onDelete('set null'))
    .addColumn('company_id', 'text', (c) => c.references('companies.id').onDelete('set null'))
    .addColumn('attachment_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_input_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('log_book_records_student_idx')
    .on('log_book_records')
    .columns(['student_id', 'created_at'])
    .execute();

  // Score snapshots per user (docs/product.md §3 Record): xp and levels at a date, for the dashboard.
  await db.schema
    .createTable('records')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('scoring', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('records_user_date_idx').on('records').columns(['user_id', 'date']).execute();

  await db.schema
    .createTable('invitation_codes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('class_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('max_uses', 'integer')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Single-use password reset links; only a hash of the token is stored.
  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expire_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Login attempts are rate-limited per account too, across API processes (not only per IP).
  await db.schema
    .createTable('login_attempts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_start', 'text', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'login_attempts',
    'password_resets',
    'invitation_codes',
    'records',
    'log_book_records',
    'reviews',
    'lesson_pages',
    'lessons',
    'class_steps',
    'class_programs',
    'class_users',
    'classes',
    'program_courses',
    'programs',
    'course_nodes',
    'course_block_terms',
    'course_blocks',
    'course_terms',
    'courses',
    'course_competencies',
    'course_categories',
    'course_types',
    'company_users',
    'companies',
    'role_users',
    'roles',
    'users',
    'files',
    'libraries',
    'context_hostnames',
    'contexts',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
