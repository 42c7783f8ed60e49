// The version of the permission graph (roles, permissions, the permissions of each role): a new random value in the
// same transaction as every change to one of the three tables, so a process holding the graph in memory can tell from
// one column read beside the rows it needs whether its copy is the one that statement sees (docs/architecture.md
// "The permission graph").
import { sql, type Kysely } from 'kysely';

const GRAPH_TABLES = ['roles', 'permissions', 'role_permissions'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table permission_graph_version (
      id smallint primary key default 1 check (id = 1),
      version text not null
    )`.execute(db);
  await sql`insert into permission_graph_version (version) values (gen_random_uuid()::text)`.execute(db);
  await sql`
    create function permission_graph_changed() returns trigger language plpgsql as $$
    begin
      update permission_graph_version set version = gen_random_uuid()::text;
      return null;
    end $$`.execute(db);
  for (const table of GRAPH_TABLES) {
    await sql`
      create trigger ${sql.id(`${table}_graph_version`)} after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function permission_graph_changed()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of GRAPH_TABLES) await sql`drop trigger if exists ${sql.id(`${table}_graph_version`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists permission_graph_changed()`.execute(db);
  await sql`drop table if exists permission_graph_version`.execute(db);
}
