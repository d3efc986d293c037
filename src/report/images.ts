/**
 * Captured matplotlib figures (the spec's `images`) as report items. Each PNG
 * is read through the file boundary with a size cap and must really be a PNG;
 * a figure the preamble could not capture, or the host refuses, becomes a
 * failed item with the reason, like a chart that fails validation.
 */
import { readArtifactBytes } from '../sandbox/artifacts.js';
import type { Declaration, Image } from '../spec/schema.js';
import type { ValidationIssue } from '../spec/validate.js';
import type { RenderedItem } from './render.js';

/** Cap on one image's size; the preamble's MAX_IMAGE_BYTES (preamble/opsmind_figures.py) is the same. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** How many figures one run keeps; the preamble's MAX_IMAGES is the same. */
export const MAX_IMAGES = 20;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A captured figure ready to embed: the PNG as base64 and its real pixel size. */
export interface BuiltImage {
  type: 'image';
  base64: string;
  width: number;
  height: number;
  bytes: number;
  source: Image['source'];
}

/** `figure 2`: how people and models see an image named. */
function imageLabel(image: Pick<Image, 'id' | 'seq'>): string {
  return `figure ${/^f(\d+)$/.exec(image.id)?.[1] ?? String(image.seq)}`;
}

/** Reads a PNG through the file boundary; throws with the reason when it is refused or not a PNG. */
export function readPng(
  workdir: string,
  file: string,
): { png: Buffer; width: number; height: number } {
  const png = readArtifactBytes(workdir, file, MAX_IMAGE_BYTES);
  if (
    png.length < 24 ||
    !png.subarray(0, 8).equals(PNG_SIGNATURE) ||
    png.toString('latin1', 12, 16) !== 'IHDR'
  ) {
    throw new Error(`"${file}" is not a PNG image`);
  }
  return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The declaration an image stands in for, so it orders, names and counts like a chart. */
function asDeclaration(image: Image): Declaration {
  return {
    id: image.id,
    seq: image.seq,
    kind: 'image',
    params: image.title ? { title: image.title } : {},
    inferred: [],
    data: {
      file: image.file,
      columns: [],
      source_columns: [],
      rows: 0,
      source_rows: 0,
      sampled: false,
      reductions: ['none'],
      cap: null,
      error: image.error,
    },
  };
}

function failed(
  decl: Declaration,
  label: string,
  code: ValidationIssue['code'],
  detail: string,
): RenderedItem {
  const issue: ValidationIssue = {
    id: decl.id,
    kind: 'image',
    code,
    message: `${label}: ${detail}`,
    suggestions: [],
  };
  return { decl, label, issues: [issue], warnings: [] };
}

/** One image as a report item: embedded when its PNG passes the boundary, failed with the reason otherwise. */
export function renderImage(image: Image, workdir: string): RenderedItem {
  const decl = asDeclaration(image);
  const label = imageLabel(image);
  if (image.error !== null || image.file === null) {
    return failed(
      decl,
      label,
      'data_error',
      image.error ?? 'the preamble wrote no PNG for this figure',
    );
  }
  try {
    const { png, width, height } = readPng(workdir, image.file);
    const built: BuiltImage = {
      type: 'image',
      base64: png.toString('base64'),
      width,
      height,
      bytes: png.length,
      source: image.source,
    };
    return { decl, label, built, issues: [], warnings: [] };
  } catch (error) {
    return failed(decl, label, 'render_failed', (error as Error).message);
  }
}
