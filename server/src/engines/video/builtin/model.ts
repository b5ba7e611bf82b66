import { VIDEO_STYLES } from '../../types.ts';
import type { ProceduralModelDescriptor } from '../../procedural/model.ts';

export const PROCEDURAL_VIDEO_MODEL_ID = 'atelier-procedural-video-1';

export const VIDEO_LIMITS = {
  width: { min: 128, max: 1920 },
  height: { min: 128, max: 1920 },
  fps: { min: 8, max: 60 },
  durationSec: { min: 1, max: 20 },
} as const;

export const proceduralVideoModel: ProceduralModelDescriptor = {
  id: PROCEDURAL_VIDEO_MODEL_ID,
  kind: 'video',
  engine: 'builtin',
  displayName: 'Atelier Procedural Video 1',
  description:
    'An offline procedural animator, not a neural model: it builds a layered scene from the prompt and films it with a camera move, grade and grain per style, encoded to H.264 by ffmpeg.',
  capabilities: ['text-to-video'],
  defaults: { width: 1280, height: 720, fps: 24, durationSec: 5, style: 'cinematic', format: 'mp4' },
  limits: { ...VIDEO_LIMITS, style: VIDEO_STYLES },
};
