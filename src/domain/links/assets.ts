import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type Asset, assets } from '../../db/schema.ts';

export async function findAsset(db: DbOrTx, id: string): Promise<Asset | undefined> {
  if (!/^img_[0-9a-f]{32}$/.test(id)) return undefined;
  const [row] = await db.select().from(assets).where(eq(assets.id, id));
  return row;
}
