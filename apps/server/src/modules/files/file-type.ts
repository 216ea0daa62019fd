/** The file's type told by its first bytes, so a renamed executable is not taken for a picture. */
export interface SniffedType {
  ext: 'jpg' | 'png' | 'pdf';
  contentType: string;
  /** File name endings that may carry this type. */
  names: string[];
}

const SIGNATURES: { bytes: number[]; type: SniffedType }[] = [
  { bytes: [0xff, 0xd8, 0xff], type: { ext: 'jpg', contentType: 'image/jpeg', names: ['.jpg', '.jpeg'] } },
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: { ext: 'png', contentType: 'image/png', names: ['.png'] } },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], type: { ext: 'pdf', contentType: 'application/pdf', names: ['.pdf'] } },
];

export function sniffFileType(data: Buffer): SniffedType | null {
  for (const { bytes, type } of SIGNATURES) {
    if (data.length >= bytes.length && bytes.every((b, i) => data[i] === b)) return type;
  }
  return null;
}
