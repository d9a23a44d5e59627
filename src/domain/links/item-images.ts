import { and, eq, ne, or, sql } from 'drizzle-orm';
import { newId, sha256Hex } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { assets, type Link, links } from '../../db/schema.ts';
import type { Item, LinkItemInput } from '../../schemas/link-sale.ts';
import { LogoError, type LogoType, readLogoSource, validateLogo } from './logos.ts';

/**
 * Item images: uploaded, checked and stored as the logo is (src/domain/links/logos.ts: PNG, JPEG,
 * WebP or sanitised SVG, at most 512 KiB, the type read from the bytes), kept in `assets` and
 * served at /assets/{id}. An item holds one image by asset id (`Item.image`). A link therefore keeps
 * at most one image per item: an image replaced or removed, or whose item is gone, is deleted when
 * no link of the merchant still shows it (assets are shared by their bytes).
 */

/** What a save does to an item's image: a checked new image, none, or the image it had. */
type ImageChange = { contentType: LogoType; bytes: Buffer } | null | undefined;

/** Where a seed's image paths are read from; the API and the console give only data: URLs. */
export interface ImageSources {
  baseDir?: string;
}

/** Reads and checks each item's new image; a refusal names `items.N.image`. */
export async function readItemImages(
  items: readonly LinkItemInput[],
  sources: ImageSources,
  problem: (field: string, message: string) => void,
): Promise<ImageChange[]> {
  const out: ImageChange[] = [];
  for (const [i, item] of items.entries()) {
    const source = item.image;
    if (typeof source !== 'string') {
      out.push(source);
      continue;
    }
    try {
      if (!source.startsWith('data:') && sources.baseDir === undefined) throw new LogoError('must be a data: URL (data:image/png;base64,…)');
      out.push(await validateLogo(await readLogoSource(source, sources.baseDir ?? '/', 'image'), 'image'));
    } catch (error) {
      if (!(error instanceof LogoError)) throw error;
      problem(`items.${i}.image`, error.message);
      out.push(undefined);
    }
  }
  return out;
}

/**
 * Stores an image as the merchant's asset (one per distinct bytes); returns its id. An asset reused
 * is share-locked until the save commits, so another save dropping it meanwhile waits and then sees
 * this link use it (dropUnusedItemImages).
 */
export async function storeImage(tx: DbOrTx, integratorId: string, image: { contentType: LogoType; bytes: Buffer }): Promise<string> {
  const digest = sha256Hex(image.bytes);
  const [same] = await tx
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.integratorId, integratorId), eq(assets.sha256, digest)))
    .limit(1)
    .for('share');
  if (same) return same.id;
  const id = newId('img');
  await tx.insert(assets).values({ id, integratorId, contentType: image.contentType, sha256: digest, bytes: image.bytes });
  return id;
}

/**
 * The items with their images as asset ids: a new image stored, null none, absent the image the
 * current link's item of the same id has.
 */
export async function withItemImages(
  tx: DbOrTx,
  integratorId: string,
  items: Item[],
  changes: readonly ImageChange[],
  current: Pick<Link, 'items'> | undefined,
): Promise<Item[]> {
  const out: Item[] = [];
  for (const [i, item] of items.entries()) {
    const change = changes[i];
    const { image: _none, ...rest } = item;
    const image =
      change === undefined ? current?.items.find((c) => c.id === item.id)?.image : change === null ? undefined : await storeImage(tx, integratorId, change);
    out.push(image ? { ...rest, image } : rest);
  }
  return out;
}

/**
 * Deletes the item images a link's save stopped using, unless another of the merchant's links
 * (its logo or an item) or this link's new values still use them. Runs in the saving transaction
 * before the link row is written: this link's own current logo is kept too, since the row still
 * names it until then.
 */
export async function dropUnusedItemImages(
  tx: DbOrTx,
  integratorId: string,
  current: Pick<Link, 'id' | 'items' | 'logoAssetId'> | undefined,
  next: { items: readonly Item[]; logoAssetId: string | null },
): Promise<void> {
  if (!current) return;
  const kept = new Set([...next.items.map((i) => i.image), next.logoAssetId, current.logoAssetId]);
  const dropped = [...new Set(current.items.map((i) => i.image))].filter((id): id is string => id !== undefined && !kept.has(id));
  for (const id of dropped) {
    // Locked first: a save reusing it meanwhile holds it shared, and its link is then seen below.
    const [asset] = await tx.select({ id: assets.id }).from(assets).where(eq(assets.id, id)).for('update');
    if (!asset) continue;
    const [used] = await tx
      .select({ id: links.id })
      .from(links)
      .where(
        and(
          eq(links.integratorId, integratorId),
          ne(links.id, current.id),
          or(eq(links.logoAssetId, id), sql`${links.items} @> ${JSON.stringify([{ image: id }])}::jsonb`),
        ),
      )
      .limit(1);
    if (!used) await tx.delete(assets).where(and(eq(assets.integratorId, integratorId), eq(assets.id, id)));
  }
}

/**
 * Where an item's image is served from; the editor's preview holds an unsaved upload as its checked
 * data: URL (src/domain/links/preview.ts), shown as it is.
 */
export const itemImageUrl = (item: Pick<Item, 'image'>) => (!item.image ? null : item.image.startsWith('data:image/') ? item.image : `/assets/${item.image}`);
