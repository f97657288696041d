/**
 * The home's two reads as query parameters, in a module without imports: the inline start-up
 * script of index.html (app/early-plan.ts) starts the same reads before the home's code arrives,
 * and its answer is only taken when the URL is the same (lib/early-requests.ts).
 */

/** The learner's lessons with their courses (get-lessons.ts). */
export const lessonsQuery = (userId: string) => ({ 'filter[userId]': userId, include: 'course' });

/** The learner's STUDENT memberships with classes, programs, courses and teachers (get-class-users.ts). */
export const classUsersQuery = (expired: boolean) => ({
  'filter[role]': 'STUDENT',
  'filter[expired]': expired,
  sort: '-createdAt',
  include: 'class.classPrograms.program.programCourses.course,class.teachers',
});
