# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Sphinx configuration of the nms.overlay documentation site (built by .ci/docs.sh, `make docs`).

Started from what `antsibull-docs sphinx-init` writes, changed to build offline:

- no intersphinx: the generated plugin pages refer to a few labels and environment variables of
  the ansible-core documentation (ANSIBLE_CORE_REFS below), which become plain links to
  docs.ansible.com instead of being looked up in a downloaded inventory. A reference that is in
  neither this site nor that table stays a warning, and the build (sphinx-build -W) fails;
- myst_parser renders the Markdown guides (docs/getting-started.md, docs/awx.md), which are also
  read as they are on the repository's web view.
"""

from docutils import nodes

project = 'nms.overlay'
copyright = 'nms.overlay contributors'  # pylint: disable=redefined-builtin

title = 'nms.overlay'
html_short_title = 'nms.overlay'
html_title = 'nms.overlay collection documentation'

extensions = ['sphinx_antsibull_ext', 'myst_parser']

source_suffix = {'.rst': 'restructuredtext', '.md': 'markdown'}
root_doc = 'index'
exclude_patterns = []

# Markdown: GitHub-style heading anchors, so links such as [TLS](#tls) work on both renderers.
myst_heading_anchors = 3
myst_enable_extensions = ['deflist']

pygments_style = 'ansible'
highlight_language = 'YAML+Jinja'

html_theme = 'sphinx_ansible_theme'
html_show_sphinx = False
html_use_smartypants = True
html_use_modindex = False
html_use_index = False
html_copy_source = False
display_version = False

default_role = 'any'
nitpicky = True

ANSIBLE_DOCS = 'https://docs.ansible.com/projects/ansible/latest/'

# (reference type, target) -> (path below ANSIBLE_DOCS, link text when the reference has none)
ANSIBLE_CORE_REFS = {
    ('ref', 'common_return_values'): (
        'reference_appendices/common_return_values.html#common-return-values', 'Return Values'),
    ('ref', 'ansible_configuration_settings'): (
        'reference_appendices/config.html#ansible-configuration-settings', 'Ansible Configuration Settings'),
    ('ref', 'inventory_plugins'): ('plugins/inventory.html#inventory-plugins', 'Inventory plugins'),
    ('ref', 'module_defaults'): ('playbook_guide/playbooks_module_defaults.html#module-defaults', 'Module defaults'),
}
for _var in ('ANSIBLE_CACHE_PLUGIN', 'ANSIBLE_CACHE_PLUGIN_CONNECTION', 'ANSIBLE_CACHE_PLUGIN_PREFIX',
             'ANSIBLE_CACHE_PLUGIN_TIMEOUT', 'ANSIBLE_INVENTORY_CACHE', 'ANSIBLE_INVENTORY_CACHE_PLUGIN',
             'ANSIBLE_INVENTORY_CACHE_CONNECTION', 'ANSIBLE_INVENTORY_CACHE_PLUGIN_PREFIX',
             'ANSIBLE_INVENTORY_CACHE_TIMEOUT'):
    ANSIBLE_CORE_REFS[('envvar', _var)] = ('reference_appendices/config.html#envvar-' + _var, _var)


def _ansible_core_reference(app, env, node, contnode):  # pylint: disable=unused-argument
    """Resolve a reference to the ansible-core documentation to a link to docs.ansible.com."""
    entry = ANSIBLE_CORE_REFS.get((node.get('reftype'), node.get('reftarget')))
    if entry is None:
        return None
    path, text = entry
    reference = nodes.reference('', '', internal=False, refuri=ANSIBLE_DOCS + path)
    if node.get('refexplicit'):
        reference += contnode
    elif node.get('reftype') == 'envvar':
        reference += nodes.literal(text, text)
    else:
        reference += nodes.inline(text, text)
    return reference


def _relative_home_link(app, pagename, templatename, context, doctree):  # pylint: disable=unused-argument
    """The theme's logo links to documentation_home_url, "/" by default: the file system's root when the site is
    opened from its files, and the server's root when it is served below one. Each page links to the root page."""
    context['theme_documentation_home_url'] = context['pathto'](app.config.root_doc)


def setup(app):
    app.connect('missing-reference', _ansible_core_reference)
    app.connect('html-page-context', _relative_home_link)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
