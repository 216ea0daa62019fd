import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * The demo market is loaded at once, months of trading in a few seconds, so its people would open the platform to
 * a hundred unread messages. Like a user who has kept up, each has read all but the newest few.
 */
export async function readAllButNewest(db: Db, keep = 5): Promise<void> {
  await db.execute(sql`
    UPDATE msg_message SET read_at = created_at
    WHERE read_at IS NULL AND id NOT IN (
      SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY id DESC) AS n FROM msg_message) newest WHERE n <= ${keep}
    )`);
}
