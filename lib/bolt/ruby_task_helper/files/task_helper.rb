# frozen_string_literal: true

# plait's own task helper for Ruby tasks, standing for the ruby_task_helper module Bolt bundles:
# Forge tasks (pkcs7, yaml, ...) name `ruby_task_helper/files/task_helper.rb` in their metadata's
# `files` and load it with require_relative from their install directory. Written from the
# helper's documented contract:
#
#   class MyTask < TaskHelper
#     def task(name:, **_rest)
#       debug "looking up #{name}"        # kept, and reported with an unexpected error
#       raise TaskHelper::Error.new('not found', 'mytask/not-found', { 'name' => name }) if ...
#       { value: ... }
#     end
#   end
#   MyTask.run if $PROGRAM_NAME == __FILE__
#
# `run` reads the task's parameters (one JSON object) from stdin, calls `task` with them as keyword
# arguments (symbol keys, nested hashes too), and prints the result as JSON. A TaskHelper::Error
# becomes {"_error": {"kind", "msg", "details"}}; any other exception an _error whose kind is the
# exception's class and whose details hold its backtrace; either way the task exits 1.
require 'json'

class TaskHelper
  # An error a task reports: its message, its kind (`module/what-failed`) and details (any data).
  class Error < RuntimeError
    attr_reader :kind, :details

    def initialize(msg, kind, details = nil)
      super(msg)
      @kind = kind
      @details = details || {}
    end

    def to_h
      { 'kind' => kind, 'msg' => message, 'details' => details }
    end
  end

  # The most backtrace lines an unexpected error reports.
  BACKTRACE_LINES = 50

  # Notes a line of what the task did; they are reported with an unexpected error.
  def debug(line)
    debug_statements << line.to_s
  end

  def debug_statements
    @debug_statements ||= []
  end

  # The task itself: a subclass defines it, taking the parameters as keyword arguments.
  def task(**_params)
    raise NotImplementedError, "#{self.class} must define the method task"
  end

  # Runs the task as a Bolt task: parameters from stdin, result (or error) as JSON on stdout.
  def self.run
    helper = new
    answer(helper.task(**parameters))
  rescue TaskHelper::Error => e
    fail_with(e)
  rescue StandardError, ScriptError => e
    details = { 'class' => e.class.to_s, 'backtrace' => (e.backtrace || []).first(BACKTRACE_LINES) }
    details['debug'] = helper.debug_statements unless helper.nil? || helper.debug_statements.empty?
    fail_with(TaskHelper::Error.new(e.message, e.class.to_s, details))
  end

  # The parameters on stdin, keys as symbols; an empty input is no parameters.
  def self.parameters
    text = $stdin.read.to_s
    return {} if text.strip.empty?

    params = JSON.parse(text, symbolize_names: true)
    raise TaskHelper::Error.new('the task input is not a JSON object', 'task_helper/input-error') unless params.is_a?(Hash)

    params
  rescue JSON::ParserError
    # never quoted: the input holds the task's parameters, which may be secrets
    raise TaskHelper::Error.new('the task input is not JSON', 'task_helper/input-error')
  end

  def self.answer(result)
    $stdout.print(JSON.generate(result))
    $stdout.flush
  end

  def self.fail_with(error)
    answer(_error: error.to_h)
    exit 1
  end

  private_class_method :parameters, :answer, :fail_with
end
