/** Labels of the content and learning screens. */
export const content = {
  'content-resources': {
    name: 'Content |||| Content',
    fields: {
      fields: {
        title: 'Title',
        slug: 'Slug',
        description: 'Description',
        body: 'Body',
        state: 'State',
        visibility: 'Visibility',
      },
      type: 'Type',
      state: 'State',
      createdById: 'Author',
      createdAt: 'Created',
      updatedAt: 'Updated',
      id: 'Id',
    },
  },
  'content-resource-resources': {
    name: 'Content link |||| Content links',
    fields: {
      resourceOfId: 'Parent',
      resourceId: 'Child',
      position: 'Position',
      metadata: { tier: 'Tier' },
      createdAt: 'Linked',
      updatedAt: 'Updated',
      id: 'Id',
    },
  },
  'product-content-resources': {
    name: 'Product content |||| Product content',
    fields: { productId: 'Product', resourceId: 'Content', position: 'Position', createdAt: 'Granted', id: 'Id' },
  },
  'lesson-progress': {
    name: 'Lesson progress |||| Lesson progress',
    fields: {
      userId: 'Learner',
      lessonId: 'Lesson',
      sectionId: 'Section',
      moduleId: 'Module',
      lessonSlug: 'Lesson slug',
      lessonVersion: 'Lesson version',
      completedAt: 'Completed',
      createdAt: 'Started',
      updatedAt: 'Updated',
      id: 'Id',
    },
  },
  comments: {
    name: 'Comment |||| Comments',
    fields: {
      userId: 'Author',
      text: 'Comment',
      context: { resourceId: 'Lesson', category: 'Category' },
      hidden: 'Visibility',
      hiddenAt: 'Hidden on',
      hiddenById: 'Hidden by',
      hiddenReason: 'Reason for hiding',
      editedAt: 'Edited',
      createdAt: 'Written',
      updatedAt: 'Updated',
      id: 'Id',
    },
  },
  bookmarks: {
    name: 'Bookmark |||| Bookmarks',
    fields: { userId: 'Learner', resourceId: 'Content', type: 'Type', fields: 'Details', createdAt: 'Saved', updatedAt: 'Updated', id: 'Id' },
  },
  'user-prefs': {
    name: 'Preferences |||| User preferences',
    fields: { userId: 'User', type: 'Scope', resourceId: 'Content', fields: 'Settings', createdAt: 'Created', updatedAt: 'Updated', id: 'Id' },
  },
};
