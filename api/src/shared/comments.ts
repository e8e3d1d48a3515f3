/** The longest comment a learner may post: the API refuses longer ones, the storefront counts down to it. */
export const MAX_COMMENT_LENGTH = 5000;
