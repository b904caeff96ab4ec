import { useEffect, useRef } from 'react';
import { palette, withAlpha } from '../app/palette.ts';
import { useReducedMotion } from '../lib/use-reduced-motion.ts';

interface Particle {
  x: number;
  y: number;
  r: number;
  speed: number;
  drift: number;
  phase: number;
  colour: string;
  square: boolean;
}

interface AnimatedCanvasProps {
  /** "bubbles": soft circles rising slowly; "confetti": small shapes falling. */
  variant?: 'bubbles' | 'confetti';
  density?: number;
}

/**
 * A decorative, light animation behind the content. Hidden from
 * assistive technology; drawn once and left still when the user prefers
 * reduced motion; paused while the tab is hidden.
 */
export function AnimatedCanvas({ variant = 'bubbles', density = 1 }: AnimatedCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const reducedMotion = useReducedMotion();

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext?.('2d');
    if (!canvas || !context) return;

    const colours =
      variant === 'confetti'
        ? [palette.primary.light, palette.secondary.main, palette.success.main, palette.primary.main]
        : [
            withAlpha(palette.primary.light, 0.14),
            withAlpha(palette.secondary.main, 0.2),
            withAlpha(palette.primary.main, 0.08),
          ];

    let width = 0;
    let height = 0;
    let particles: Particle[] = [];
    let frame = 0;

    const make = (anywhere: boolean): Particle => {
      const confetti = variant === 'confetti';
      return {
        x: Math.random() * width,
        y: anywhere ? Math.random() * height : confetti ? -20 : height + 40,
        r: confetti ? 3 + Math.random() * 4 : 12 + Math.random() * 46,
        speed: confetti ? 0.6 + Math.random() * 1.2 : 0.15 + Math.random() * 0.35,
        drift: 0.3 + Math.random() * 0.7,
        phase: Math.random() * Math.PI * 2,
        colour: colours[Math.floor(Math.random() * colours.length)] ?? colours[0]!,
        square: confetti && Math.random() > 0.5,
      };
    };

    const resize = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      width = canvas.clientWidth;
      height = canvas.clientHeight;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      const perArea = variant === 'confetti' ? 9000 : 28000;
      const count = Math.round(Math.min(90, Math.max(12, (width * height) / perArea)) * density);
      particles = Array.from({ length: count }, () => make(true));
    };

    const draw = (time: number) => {
      context.clearRect(0, 0, width, height);
      for (const p of particles) {
        const x = p.x + Math.sin(time / 1800 + p.phase) * 12 * p.drift;
        context.fillStyle = p.colour;
        if (p.square) {
          context.save();
          context.translate(x, p.y);
          context.rotate(time / 900 + p.phase);
          context.fillRect(-p.r, -p.r / 2, p.r * 2, p.r);
          context.restore();
        } else {
          context.beginPath();
          context.arc(x, p.y, p.r, 0, Math.PI * 2);
          context.fill();
        }
      }
    };

    const step = (time: number) => {
      for (let i = 0; i < particles.length; i += 1) {
        const p = particles[i]!;
        p.y += variant === 'confetti' ? p.speed : -p.speed;
        if (p.y < -p.r - 40 || p.y > height + p.r + 40) particles[i] = make(false);
      }
      draw(time);
      frame = window.requestAnimationFrame(step);
    };

    resize();
    draw(0);
    const observer =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            resize();
            draw(0);
          })
        : null;
    observer?.observe(canvas);

    const start = () => {
      if (!reducedMotion && !document.hidden && !frame) frame = window.requestAnimationFrame(step);
    };
    const stop = () => {
      if (frame) window.cancelAnimationFrame(frame);
      frame = 0;
    };
    const onVisibility = () => (document.hidden ? stop() : start());
    document.addEventListener('visibilitychange', onVisibility);
    start();

    return () => {
      stop();
      observer?.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [variant, density, reducedMotion]);

  return <canvas ref={canvasRef} className="animated-canvas" aria-hidden="true" />;
}
