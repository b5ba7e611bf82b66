import type { ProceduralModelDescriptor } from '../../procedural/model.ts';

export const PROCEDURAL_IMAGE_MODEL_ID = 'atelier-procedural-image-1';

export const IMAGE_SIZE_LIMIT = { min: 512, max: 1536 } as const;

export const proceduralImageModel: ProceduralModelDescriptor = {
  id: PROCEDURAL_IMAGE_MODEL_ID,
  kind: 'image',
  engine: 'builtin',
  displayName: 'Atelier Procedural Image 1',
  description:
    'An offline procedural renderer, not a neural model: it reads scene, light, colour and style words from the prompt and paints layered vector scenes with a seeded random generator.',
  capabilities: ['text-to-image', 'image-to-image'],
  defaults: { width: 1024, height: 1024, n: 1, strength: 0.6, format: 'png' },
  limits: {
    width: IMAGE_SIZE_LIMIT,
    height: IMAGE_SIZE_LIMIT,
    n: { min: 1, max: 4 },
    strength: { min: 0, max: 1 },
    inputFormats: ['png', 'jpeg', 'webp'],
  },
};
